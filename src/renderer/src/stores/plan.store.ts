import { create } from 'zustand';
import type { Slot, SlotField } from '../../../shared/contract/entities/slot';

/** An action that can be undone, with what is needed to invert it. */
export type UndoEntry =
  | { kind: 'update'; label: string; changes: { id: number; field: SlotField; before: unknown }[] }
  | { kind: 'create'; label: string; ids: number[] }
  | { kind: 'delete'; label: string; slots: Slot[] }
  | { kind: 'paste'; label: string; createdIds: number[]; before: Slot[] };

export type Notice = { kind: 'error' | 'info'; text: string };

type PlanState = {
  undo: UndoEntry[];
  /** Invalid cells: `${id}:${field}` → message. Nothing was written for them. */
  cellErrors: Record<string, string>;
  notice: Notice | null;
  selectedIds: number[];
  total: number | null;
  push(e: UndoEntry): void;
  pop(): UndoEntry | undefined;
  setCellError(id: number, field: string, message: string | null): void;
  notify(n: Notice | null): void;
  setSelected(ids: number[]): void;
  setTotal(n: number): void;
};

const UNDO_LIMIT = 100;

export const usePlanStore = create<PlanState>((set, get) => ({
  undo: [],
  cellErrors: {},
  notice: null,
  selectedIds: [],
  total: null,
  push: (e) => set((s) => ({ undo: [...s.undo.slice(-(UNDO_LIMIT - 1)), e] })),
  pop: () => {
    const last = get().undo.at(-1);
    if (last) set((s) => ({ undo: s.undo.slice(0, -1) }));
    return last;
  },
  setCellError: (id, field, message) =>
    set((s) => {
      const next = { ...s.cellErrors };
      if (message) next[`${id}:${field}`] = message;
      else delete next[`${id}:${field}`];
      return { cellErrors: next };
    }),
  notify: (notice) => set({ notice }),
  setSelected: (selectedIds) => set({ selectedIds }),
  setTotal: (total) => set({ total }),
}));
