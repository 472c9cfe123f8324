export type Notice = { kind: 'error' | 'info'; text: string };

const n = (x: number) => x.toLocaleString('en-US');
/** The grids' nouns: "tasks" → "task", "trajectories" → "trajectory" (not "trajectorie"). */
export const singular = (noun: string) => noun.replace(/ies$/, 'y').replace(/s$/, '');

/**
 * Below the grid, one fixed-height line: rows (filtered of total), selected rows, selected cells,
 * and the last notice. Notices live here, not above the grid, so a message never pushes the grid
 * down (no layout shift under the user's pointer).
 */
export function StatusBar({
  total,
  unfiltered,
  filtered,
  selected,
  cells,
  notice,
  onDismiss,
  noun = 'rows',
  testId = 'grid-notice',
}: {
  total: number | null;
  unfiltered: number | null;
  filtered: boolean;
  selected: number;
  cells: number;
  notice: Notice | null;
  onDismiss(): void;
  noun?: string;
  testId?: string;
}) {
  const rows =
    total === null
      ? '…'
      : filtered && unfiltered !== null && unfiltered !== total
        ? `${n(total)} of ${n(unfiltered)} ${noun} (filtered)`
        : `${n(total)} ${total === 1 ? singular(noun) : noun}`;
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span data-testid="status-rows">{rows}</span>
      {selected > 0 && <span data-testid="status-selected">{n(selected)} selected</span>}
      {cells > 1 && <span data-testid="status-cells">{n(cells)} cells</span>}
      <span
        className={`status-notice${notice ? ` notice-${notice.kind}` : ''}`}
        role={notice?.kind === 'error' ? 'alert' : 'status'}
        data-testid={testId}
        title={notice?.text}
      >
        {notice?.text}
        {notice && (
          <button type="button" className="link" onClick={onDismiss} aria-label="dismiss">
            ×
          </button>
        )}
      </span>
    </footer>
  );
}
