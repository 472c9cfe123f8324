import { create } from 'zustand';
import type { EventPayload } from '../../../shared/contract/events';

type JobProgress = EventPayload<'job.progress'>;

type AppState = {
  /** The open workspace file: grid layouts are kept per workspace. Null until workspace.info answers. */
  workspace: string | null;
  jobs: Record<string, JobProgress>;
  setWorkspace(path: string): void;
  jobProgress(p: JobProgress): void;
};

export const useAppStore = create<AppState>((set) => ({
  workspace: null,
  jobs: {},
  setWorkspace: (workspace) => set({ workspace }),
  jobProgress: (p) => set((s) => ({ jobs: { ...s.jobs, [p.jobId]: p } })),
}));
