import { create } from 'zustand';
import type { EventPayload } from '../../../shared/contract/events';

export type Page = 'plan' | 'tasks' | 'jobs' | 'workspace' | 'settings';
type JobProgress = EventPayload<'job.progress'>;

type AppState = {
  page: Page;
  jobs: Record<string, JobProgress>;
  go(page: Page): void;
  jobProgress(p: JobProgress): void;
};

export const useAppStore = create<AppState>((set) => ({
  page: 'plan',
  jobs: {},
  go: (page) => set({ page }),
  jobProgress: (p) => set((s) => ({ jobs: { ...s.jobs, [p.jobId]: p } })),
}));
