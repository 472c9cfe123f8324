import { useCallback, useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText, onEvent } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';

type Settings = Output<'grading.judgeSettings'>;

/**
 * Settings → Judge: the endpoint llm_judge checks are graded with (like the generator's endpoint choice). Without
 * one those checks are "judge pending": left out of completion and pass rates, never counted 0.
 */
export function JudgeSetting({ endpoints }: { endpoints: string[] }) {
  const [s, setS] = useState<Settings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    () =>
      void call('grading.judgeSettings', {}).then(
        (x) => (setS(x), setError(null)),
        (e) => setError(errorText(e)),
      ),
    [],
  );
  useEffect(() => {
    load();
    return onEvent('table.changed', ({ table }) => (table === 'workspace_meta' || table === 'endpoints') && load());
  }, [load]);
  const choose = async (endpoint: string) => {
    setError(null);
    try {
      setS(await call('grading.setJudge', { endpoint: endpoint || null }));
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div data-testid="judge-setting">
      <h2 className="section-title">Judge</h2>
      <p className="hint">
        The endpoint that grades llm_judge checks, with Claw-Eval's judge prompt; answers are cached by model and
        prompt, so re-grades do not ask again. Without one, those checks are “judge pending”: outside completion and
        pass rates, never counted as 0. Grades change when trajectories are re-graded.
      </p>
      <label>
        Judge endpoint{' '}
        <select
          data-testid="judge-endpoint"
          value={s?.endpoint ?? ''}
          onChange={(e) => void choose(e.target.value)}
          disabled={!s}
        >
          <option value="">none (judge pending)</option>
          {endpoints.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
          {s?.missing && s.endpoint && <option value={s.endpoint}>{s.endpoint} (removed)</option>}
        </select>
      </label>
      {s?.endpoint && !s.missing && (
        <span className="hint">
          {' '}
          model {s.model} · {s.cached} cached answer{s.cached === 1 ? '' : 's'}
        </span>
      )}
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
    </div>
  );
}
