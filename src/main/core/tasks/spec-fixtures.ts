import { SERVICE_REGISTRY } from '../services/registry';
import type { tasksRepo } from './tasks.repo';

type Repo = ReturnType<typeof tasksRepo>;
export type TaskFixture = ReturnType<Repo['fixtures']>[number] & { inline: boolean };

/** Where the grid says inline records come from. */
export const INLINE_SOURCE = 'records inline in the task spec';

/**
 * A task's fixtures as the Fixtures section shows them: the stored fixture files (imports) and, for
 * tasks stored as a TaskSpec (generated, hand-written), each service's records inline in the spec —
 * those tasks have no fixture files, and their Fixtures section was empty (issue 21 item 7).
 */
export function fixturesOfTask(repo: Repo, taskId: string): TaskFixture[] {
  const stored: TaskFixture[] = repo.fixtures(taskId).map((f) => ({ ...f, inline: false }));
  const t = repo.get(taskId);
  if (!t || t.row.origin === 'imported') return stored;
  const services = Array.isArray(t.spec.services) ? (t.spec.services as { name?: unknown; records?: unknown }[]) : [];
  for (const s of services) {
    const def = typeof s.name === 'string' ? SERVICE_REGISTRY.get(s.name) : undefined;
    if (!def || !Array.isArray(s.records) || stored.some((f) => f.service === def.id && f.env === def.fixtureEnv))
      continue;
    stored.push({
      service: def.id,
      env: def.fixtureEnv,
      setByTask: true,
      source: INLINE_SOURCE,
      content: JSON.stringify(s.records),
      records: s.records.length,
      inline: true,
    });
  }
  return stored;
}
