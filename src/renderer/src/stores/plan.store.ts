import { create } from 'zustand';
import type { Notice } from '../grids/StatusBar';

export type { Notice };

type PlanState = {
  /** Invalid cells: `${id}:${field}` → message. Nothing was written for them. */
  cellErrors: Record<string, string>;
  notice: Notice | null;
  setCellError(id: number, field: string, message: string | null): void;
  notify(n: Notice | null): void;
};

export const usePlanStore = create<PlanState>((set) => ({
  cellErrors: {},
  notice: null,
  setCellError: (id, field, message) =>
    set((s) => {
      const next = { ...s.cellErrors };
      if (message) next[`${id}:${field}`] = message;
      else delete next[`${id}:${field}`];
      return { cellErrors: next };
    }),
  notify: (notice) => set({ notice }),
}));
