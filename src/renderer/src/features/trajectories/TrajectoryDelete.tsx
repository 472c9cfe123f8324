import { useState } from 'react';
import { call, errorText } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import type { Notice } from '../../grids/StatusBar';
import type { ServerGrid } from '../../grids/use-server-grid';

/** trajectories.delete takes this many ids at once; a larger deletion is several calls. */
const CHUNK = 100_000;

type Pending = { ids: number[]; what: string };

/**
 * Deletes trajectories by selection (the ticked rows) or by filter (every row matching the grid's
 * filters, quick search and message-text search), after a confirmation that says how many. The core
 * keeps no copy of a deleted trajectory, so the dialog says it cannot be undone (its file can be
 * imported again).
 */
export function TrajectoryDelete({
  grid,
  matchingIds,
  filtered,
  onNotice,
}: {
  grid: ServerGrid<'trajectories.list', number>;
  /** Every id under the grid's filter and the text search. */
  matchingIds(): Promise<{ ids: number[]; total: number }>;
  filtered: boolean;
  onNotice(n: Notice | null): void;
}) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const askSelected = () => {
    const ids = grid.selectedIds();
    if (!ids.length) return onNotice({ kind: 'error', text: 'Tick the trajectories to delete first' });
    setPending({ ids, what: 'selected' });
  };
  const askMatching = () =>
    matchingIds().then(
      (r) => {
        if (r.total > r.ids.length)
          return onNotice({ kind: 'error', text: `${r.total} match: narrow the filter below ${r.ids.length}` });
        if (!r.ids.length) return onNotice({ kind: 'info', text: 'No trajectory matches the filter' });
        setPending({ ids: r.ids, what: filtered ? 'matching the filter' : 'in the workspace (no filter)' });
      },
      (e) => onNotice({ kind: 'error', text: errorText(e) }),
    );
  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      let deleted = 0;
      for (let at = 0; at < pending.ids.length; at += CHUNK)
        deleted += (await call('trajectories.delete', { ids: pending.ids.slice(at, at + CHUNK) })).deleted;
      grid.clearSelection();
      onNotice({ kind: 'info', text: `Deleted ${deleted} trajector${deleted === 1 ? 'y' : 'ies'}` });
    } catch (e) {
      onNotice({ kind: 'error', text: errorText(e) });
    } finally {
      setBusy(false);
      setPending(null);
    }
  };
  const n = pending?.ids.length ?? 0;
  return (
    <>
      <button type="button" onClick={askSelected} disabled={!grid.selectedCount} data-testid="delete-selected">
        Delete selected{grid.selectedCount ? ` (${grid.selectedCount})` : ''}
      </button>
      <button type="button" onClick={() => void askMatching()} data-testid="delete-matching">
        Delete all {filtered ? 'matching' : ''}…
      </button>
      {pending && (
        <Dialog label="Delete trajectories" onClose={() => setPending(null)}>
          <h2>Delete trajectories</h2>
          <p data-testid="delete-count">
            Delete {n} trajector{n === 1 ? 'y' : 'ies'} {pending.what}?
          </p>
          <p className="hint">
            Their bodies and search entries go too, and curation statistics are recomputed. This cannot be undone: only
            a new import of their files brings them back.
          </p>
          <div className="dialog-actions">
            <button type="button" onClick={() => setPending(null)}>
              Keep them
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => void confirm()}
              disabled={busy}
              data-testid="delete-confirm"
            >
              Delete {n}
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
