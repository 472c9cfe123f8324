import { useEffect, useState } from 'react';
import type { Input, Output } from '../../../../shared/contract';
import { call, errorText } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { useJob } from '../../api/use-job';
import { ErrorNotice } from '../../components/ErrorNotice';

type Result = { perSlot: { validFirstTime: number; repaired: number }[]; stopped: string | null; problems: string[] };

/**
 * Starts generation.run for the selected slots or for every slot below target, with the
 * procedural generator or a configured endpoint, and follows the job: progress, cancel, and the
 * outcome. The grid's counts and the heat maps fill while it runs (they follow table changes).
 */
export function GenerateTasksDialog({
  slots,
  onClose,
}: {
  slots: { ids: number[] } | 'below_target';
  onClose(): void;
}) {
  const [generator, setGenerator] = useState<'procedural' | 'llm'>('procedural');
  const [endpoints, setEndpoints] = useState<Output<'endpoints.list'>['endpoints']>([]);
  const [endpoint, setEndpoint] = useState('');
  const [perSlot, setPerSlot] = useState('');
  const [seed, setSeed] = useState(1);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { progress, running, outcome } = useJob(jobId, 'generation.run');
  const result: Result | null = outcome?.ok ? outcome.result : null;

  useEffect(() => {
    void call('endpoints.list').then(
      (r) => (setEndpoints(r.endpoints), setEndpoint((e) => e || r.endpoints[0]?.name || '')),
      () => {},
    );
  }, []);

  const start = async () => {
    setError(null);
    try {
      const n = Number(perSlot);
      const input: Input<'generation.run'> = {
        slots,
        seed,
        generator,
        ...(perSlot.trim() && Number.isInteger(n) && n > 0 ? { perSlot: n } : {}),
        ...(generator === 'llm' ? { endpoint } : {}),
      } as Input<'generation.run'>;
      setJobId((await call('generation.run', input)).jobId);
    } catch (err) {
      setError(errorText(err));
    }
  };
  const what = slots === 'below_target' ? 'every slot below its target' : `${slots.ids.length} selected slot(s)`;
  const empty = result ? result.perSlot.filter((s) => s.validFirstTime + s.repaired === 0).length : 0;

  return (
    <Dialog label="Generate tasks" onClose={onClose}>
      <h2>Generate tasks</h2>
      <p className="hint">For {what}. Each candidate is validated and repaired once; valid ones become tasks.</p>
      <label>
        Generator{' '}
        <select
          value={generator}
          onChange={(e) => setGenerator(e.target.value as 'procedural' | 'llm')}
          data-testid="gen-generator"
        >
          <option value="procedural">procedural (offline)</option>
          <option value="llm" disabled={!endpoints.length}>
            model endpoint{endpoints.length ? '' : ' (add one in Settings)'}
          </option>
        </select>
      </label>
      {generator === 'llm' && (
        <label>
          Endpoint{' '}
          <select value={endpoint} onChange={(e) => setEndpoint(e.target.value)}>
            {endpoints.map((e) => (
              <option key={e.name} value={e.name}>
                {e.name} ({e.model})
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Candidates per slot{' '}
        <input value={perSlot} onChange={(e) => setPerSlot(e.target.value)} placeholder="to target" />
      </label>
      <label>
        Seed <input type="number" min={0} value={seed} onChange={(e) => setSeed(Number(e.target.value))} />
      </label>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
      {progress && (
        <p data-testid="gen-progress">
          <progress max={progress.total || 1} value={progress.done} />{' '}
          {progress.message === progress.state ? progress.state : `${progress.state}: ${progress.message}`}
        </p>
      )}
      {result && (
        <p data-testid="gen-result">
          {result.perSlot.length} slot(s); {empty ? `${empty} produced nothing valid` : 'each produced valid tasks'}
          {result.problems.length ? `; ${result.problems.length} skipped: ${result.problems[0]}` : ''}
          {result.stopped ? `; stopped: ${result.stopped}` : ''}
        </p>
      )}
      <div className="dialog-actions">
        {running ? (
          <button
            type="button"
            onClick={() => jobId && void call('jobs.cancel', { id: jobId })}
            data-testid="gen-cancel"
          >
            Cancel job
          </button>
        ) : (
          <button type="button" onClick={start} disabled={generator === 'llm' && !endpoint} data-testid="gen-start">
            Start
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
