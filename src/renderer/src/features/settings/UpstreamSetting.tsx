import { useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText } from '../../api/client';
import { useLiveQuery } from '../../api/use-live-query';
import { ErrorNotice } from '../../components/ErrorNotice';

type Check = NonNullable<Output<'upstream.settings'>['check']>;

const yes = (ok: boolean, text: string) => (
  <>
    <span className={`chip chip-${ok ? 'pass' : 'fail'}`}>{ok ? 'yes' : 'no'}</span> {text}
  </>
);

/** What a Check found, part by part, then the first missing piece in words. */
function CheckResult({ c }: { c: Check }) {
  const tasks = c.importedTasks
    ? `${c.withGrader.length} of ${c.importedTasks} imported tasks have a grader.py in the checkout`
    : 'the workspace has no imported Claw-Eval task yet';
  return (
    <div className={`notice ${c.usable ? 'notice-info' : 'notice-error'}`} data-testid="upstream-check-result">
      <strong>{c.usable ? 'Usable: imported tasks can be graded with their own grader.py' : 'Not usable'}</strong>
      <ul>
        <li>Python: {yes(c.pythonVersion !== null, c.pythonVersion ? `${c.python} ${c.pythonVersion}` : c.python)}</li>
        <li>claw_eval importable from the checkout: {yes(c.clawEvalImports, c.root ?? '(no folder set)')}</li>
        <li data-testid="upstream-check-tasks">
          {tasks}
          {c.withoutGrader.length > 0 && (
            <span className="hint">
              {' '}
              — without: {c.withoutGrader.slice(0, 8).join(', ')}
              {c.withoutGrader.length > 8 ? ` and ${c.withoutGrader.length - 8} more` : ''}
            </span>
          )}
        </li>
      </ul>
      {c.missing && <div data-testid="upstream-missing">Missing: {c.missing}</div>}
      <div className="hint">checked {c.at.replace('T', ' ').slice(0, 19)}</div>
    </div>
  );
}

/**
 * Settings → Upstream grader (issue 19 item 6): the user's Claw-Eval checkout and Python, so imported tasks can be
 * graded with their own grader.py (Trajectories → Grade with upstream grader.py). Saving checks at once.
 */
export function UpstreamSetting() {
  const live = useLiveQuery('upstream.settings', {});
  const s = live.data;
  // What the user typed; null: not edited, the stored value shows (a refetch never overwrites typing).
  const [rootDraft, setRoot] = useState<string | null>(null);
  const [pythonDraft, setPython] = useState<string | null>(null);
  const storedPython = !s || s.python === 'python3' ? '' : s.python;
  const root = rootDraft ?? s?.root ?? '';
  const python = pythonDraft ?? storedPython;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (f: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await f();
      live.reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      await call('upstream.setSettings', { root: root.trim() || null, python: python.trim() || null });
      setRoot(null);
      setPython(null);
    });
  const changed = !!s && ((s.root ?? '') !== root.trim() || storedPython !== python.trim());
  return (
    <div data-testid="upstream-setting">
      <h2 className="section-title">Upstream grader</h2>
      <p className="hint">
        Claw-Eval grades each task with its own <code>grader.py</code>. The app grades imported tasks on checks it
        derives from their task.yaml; with your Claw-Eval checkout and a Python that has Claw-Eval's grader
        dependencies, it can also run each task's grader.py (a time-limited subprocess, network closed but to the judge)
        and show both scores side by side. Without them, imported Claw-Eval scores are the app's reading of task.yaml.
      </p>
      <div className="form-row">
        <label>
          Claw-Eval checkout folder{' '}
          <input
            data-testid="upstream-root"
            value={root}
            onChange={(e) => setRoot(e.target.value)}
            placeholder="/path/to/claw-eval"
            size={48}
          />
        </label>{' '}
        <label>
          Python{' '}
          <input
            data-testid="upstream-python"
            value={python}
            onChange={(e) => setPython(e.target.value)}
            placeholder="python3"
            size={24}
          />
        </label>{' '}
        <button type="button" onClick={() => void save()} disabled={busy || !changed} data-testid="upstream-save">
          Save and check
        </button>{' '}
        <button
          type="button"
          onClick={() => void run(() => call('upstream.check', {}))}
          disabled={busy || changed}
          data-testid="upstream-check"
        >
          {busy ? 'Checking…' : 'Check'}
        </button>
      </div>
      {s?.check && <CheckResult c={s.check} />}
      {s && !s.check && s.root && <p className="hint">Not checked yet: press Check.</p>}
      <ErrorNotice error={error ?? live.error} onDismiss={() => setError(null)} />
    </div>
  );
}
