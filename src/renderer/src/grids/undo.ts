import { create } from 'zustand';

/**
 * One undo stack per grid. An entry knows how to invert itself; `run` answers what the user should
 * read (e.g. "2 cells were changed by another writer since: left as they are"). Entries are in
 * memory: a reload starts a new stack (the task versions are the durable history).
 */
export type UndoEntry = { label: string; undo(): Promise<string | undefined> };

type UndoState = {
  stacks: Record<string, UndoEntry[]>;
  push(grid: string, e: UndoEntry): void;
  pop(grid: string): UndoEntry | undefined;
  clear(grid: string): void;
};

const LIMIT = 100;
const NONE: UndoEntry[] = [];

/** A grid's undo stack for rendering. (A selector must answer the same array when nothing changed: zustand 5.) */
export const useUndoStack = (grid: string) => useUndoStore((s) => s.stacks[grid] ?? NONE);

export const useUndoStore = create<UndoState>((set, get) => ({
  stacks: {},
  push: (grid, e) =>
    set((s) => ({ stacks: { ...s.stacks, [grid]: [...(s.stacks[grid] ?? []).slice(-(LIMIT - 1)), e] } })),
  pop: (grid) => {
    const last = get().stacks[grid]?.at(-1);
    if (last) set((s) => ({ stacks: { ...s.stacks, [grid]: s.stacks[grid]!.slice(0, -1) } }));
    return last;
  },
  clear: (grid) => set((s) => ({ stacks: { ...s.stacks, [grid]: [] } })),
}));

/** Undo the grid's last action; a failed undo goes back on the stack. Answers the message to show. */
export async function undoLast(grid: string): Promise<{ kind: 'info' | 'error'; text: string }> {
  const store = useUndoStore.getState();
  const e = store.pop(grid);
  if (!e) return { kind: 'info', text: 'Nothing to undo' };
  try {
    const note = await e.undo();
    return { kind: 'info', text: `Undid ${e.label}${note ? ` — ${note}` : ''}` };
  } catch (err) {
    store.push(grid, e);
    return { kind: 'error', text: `Could not undo ${e.label}: ${(err as Error).message}` };
  }
}
