import type { Output, ParsedInput } from '../../../shared/contract';
import type { ImportOutcome } from '../../../shared/contract/entities/task';
import type { MutationContext, QueryContext } from '../context';
import { preparedMutation } from '../lib/handler-types';
import { readClawTask, TaskImportError, type ReadTask } from './claw-eval/read-task';
import { locateTasks } from './claw-eval/task-files';
import { tasksRepo, tasksWriter } from './tasks.repo';

/** One task folder, read and parsed (or the reason it could not be). */
type ReadItem = { source: string; task: ReadTask } | { source: string; error: string; errors?: string[] };

const failed = (source: string, errors: string[]): ImportOutcome => ({
  source,
  taskId: null,
  status: 'error',
  version: null,
  warnings: [],
  errors,
});

/** Reads every task of every path; one broken task (or path) is an error item, never an exception. */
function readAll(paths: string[], ctx: QueryContext): ReadItem[] {
  const items: ReadItem[] = [];
  for (const p of paths) {
    let locations: ReturnType<typeof locateTasks>;
    try {
      locations = locateTasks(p);
    } catch (err) {
      items.push({ source: p, error: (err as Error).message });
      continue;
    }
    for (const loc of locations) {
      try {
        items.push({ source: loc.dir, task: readClawTask(loc) });
      } catch (err) {
        if (err instanceof TaskImportError) items.push({ source: loc.dir, error: err.message, errors: err.errors });
        else {
          // A bug in the reader, not bad input: logged, reported on this task, the others go on.
          ctx.logger.error('task import failed unexpectedly', { dir: loc.dir, error: (err as Error).stack });
          items.push({ source: loc.dir, error: `unexpected error while reading this task: ${(err as Error).message}` });
        }
      }
    }
  }
  return items;
}

/** Stores what was read; the version and hash are read again here, inside the transaction. */
function storeAll(items: ReadItem[], ctx: MutationContext): Output<'tasks.import'> {
  const repo = tasksRepo(ctx.db);
  const write = tasksWriter(ctx.db);
  const now = ctx.now();
  const outcomes = items.map((item): ImportOutcome => {
    if ('error' in item) return failed(item.source, item.errors ?? [item.error]);
    const t = item.task;
    const prev = repo.hashOf(t.taskId);
    const base = { source: item.source, taskId: t.taskId, warnings: t.warnings, errors: [] };
    if (prev && prev.hash === t.contentHash) return { ...base, status: 'unchanged', version: prev.version };
    const version = (prev?.version ?? 0) + 1;
    write.upsertImported(t, version, now, repo.get(t.taskId)?.row.created_at ?? now);
    write.recordVersion(t.taskId, version, t.contentHash, `${prev ? 're-import' : 'import'} of ${item.source}`, now);
    return { ...base, status: prev ? 'updated' : 'imported', version };
  });
  if (outcomes.some((o) => o.status === 'imported' || o.status === 'updated')) ctx.touch('tasks');
  const count = (s: ImportOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  return {
    outcomes,
    counts: {
      imported: count('imported'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      errors: count('error'),
      warnings: outcomes.reduce((n, o) => n + o.warnings.length, 0),
    },
  };
}

/**
 * tasks.import: every file is read and parsed in `prepare`, outside the write transaction (a large
 * task.yaml once held the lock for seconds and other writers failed); the transaction only stores.
 */
export const importTasks = preparedMutation<'tasks.import'>()({
  prepare: (input: ParsedInput<'tasks.import'>, ctx) => readAll(input.paths, ctx),
  write: (_input, items, ctx) => storeAll(items, ctx),
});
