import { useState } from 'react';
import type { Check } from '../../../../shared/contract/entities/checks';
import { call, errorText } from '../../api/client';
import { useUndoStore } from '../../grids/undo';

/** The undo stack of a task's checks (Ctrl+Z in the trajectory viewer). */
export const checksUndoId = (taskId: string) => `checks:${taskId}`;

const mean = (x: number | null) => (x === null ? '—' : x.toFixed(4));

/**
 * Edit one check of a generated (or hand-written) task as JSON: saved as the task's next version,
 * validated, and every graded trajectory of the task re-graded at once (grading.updateCheck).
 */
export function CheckEditor({
  taskId,
  version,
  check,
  onDone,
}: {
  taskId: string;
  version: number;
  check: Check;
  onDone(message: string): void;
}) {
  const [text, setText] = useState(JSON.stringify(check, null, 2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setError(`not JSON: ${(e as Error).message}`);
      return;
    }
    setBusy(true);
    try {
      const r = await call('grading.updateCheck', { taskId, check: parsed as Check, expectedVersion: version });
      // Undo = revert to the version edited, unless another writer made a version since (CONFLICT).
      useUndoStore.getState().push(checksUndoId(taskId), {
        label: `edit of check ${check.id}`,
        undo: async () => {
          const u = await call('tasks.revert', { taskId, version, expectedVersion: r.version });
          return `now version ${u.version}; re-graded ${u.regraded} trajectories, ${u.changed} changed score`;
        },
      });
      onDone(
        `Saved as version ${r.version} (validation: ${r.validation}${r.problem ? ` — ${r.problem}` : ''}); ` +
          `re-graded ${r.regraded} trajectories, ${r.changed} changed score, mean ${mean(r.meanBefore)} → ` +
          `${mean(r.meanAfter)} — Ctrl+Z undoes`,
      );
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="check-editor" data-testid="check-editor">
      <div className="hint">
        Check <b>{check.id}</b> of {taskId} (version {version}). The id stays; kind, weight, targets and matchers can
        change.
      </div>
      <textarea
        aria-label="Check JSON"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={Math.min(18, text.split('\n').length + 1)}
        spellCheck={false}
      />
      {error && <p className="notice notice-error">{error}</p>}
      <div className="row-actions">
        <button type="button" onClick={() => void save()} disabled={busy} data-testid="save-check">
          Save and re-grade
        </button>
        <button type="button" onClick={() => onDone('')}>
          Cancel
        </button>
      </div>
    </div>
  );
}
