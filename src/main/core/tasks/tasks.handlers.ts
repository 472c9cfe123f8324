import type { ImportOutcome } from '../../../shared/contract/entities/task';
import type { HandlerMap } from '../lib/handler-types';
import { AppError, notFound } from '../lib/errors';
import { readClawTask, TaskImportError } from './claw-eval/read-task';
import { locateTasks } from './claw-eval/task-files';
import { tasksRepo, tasksWriter } from './tasks.repo';
import { storedTaskSpec } from './task-spec-of';
import { fixtureRows, updateFixtureCell } from './fixture-edit';
import { revertTo, versionDiff } from './task-versions';
import { pagedIds, pagedValues } from '../db/paged-list';
import { TASK_TABLE } from './tasks.repo';

export const tasksHandlers = {
  'tasks.list': (input, ctx) => tasksRepo(ctx.db).list(input),
  'tasks.values': (input, ctx) => pagedValues(ctx.db, TASK_TABLE, input.field, input),
  'tasks.ids': (input, ctx) => pagedIds<string>(ctx.db, TASK_TABLE, input),
  'tasks.get': (input, ctx) => {
    const repo = tasksRepo(ctx.db);
    const t = repo.get(input.taskId);
    if (!t) throw notFound(`task ${input.taskId}`);
    return { row: t.row, spec: t.spec, fixtures: repo.fixtures(input.taskId).map(({ content: _c, ...f }) => f) };
  },
  /**
   * Files are read inside the write transaction (handlers are synchronous); a whole Claw-Eval
   * corpus of 300 tasks is read in well under a second, so the lock is held briefly.
   */
  'tasks.import': (input, ctx) => {
    const repo = tasksRepo(ctx.db);
    const write = tasksWriter(ctx.db);
    const outcomes: ImportOutcome[] = [];
    const now = ctx.now();
    for (const p of input.paths) {
      let locations: ReturnType<typeof locateTasks>;
      try {
        locations = locateTasks(p);
      } catch (err) {
        outcomes.push({
          source: p,
          taskId: null,
          status: 'error',
          version: null,
          warnings: [],
          errors: [(err as Error).message],
        });
        continue;
      }
      for (const loc of locations) {
        try {
          const t = readClawTask(loc);
          const prev = repo.hashOf(t.taskId);
          if (prev && prev.hash === t.contentHash) {
            outcomes.push({
              source: loc.dir,
              taskId: t.taskId,
              status: 'unchanged',
              version: prev.version,
              warnings: t.warnings,
              errors: [],
            });
            continue;
          }
          const version = (prev?.version ?? 0) + 1;
          write.upsertImported(t, version, now, repo.get(t.taskId)?.row.created_at ?? now);
          write.recordVersion(
            t.taskId,
            version,
            t.contentHash,
            prev ? `re-import of ${loc.dir}` : `import of ${loc.dir}`,
            now,
          );
          outcomes.push({
            source: loc.dir,
            taskId: t.taskId,
            status: prev ? 'updated' : 'imported',
            version,
            warnings: t.warnings,
            errors: [],
          });
        } catch (err) {
          if (!(err instanceof TaskImportError))
            throw new AppError('INTERNAL', `${loc.dir}: ${(err as Error).message}`);
          outcomes.push({
            source: loc.dir,
            taskId: null,
            status: 'error',
            version: null,
            warnings: [],
            errors: [err.message],
          });
        }
      }
    }
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
  },
  'tasks.versions': (input, ctx) => tasksRepo(ctx.db).versions(input.taskId),
  'tasks.checks': (input, ctx) => {
    const { spec, notes } = storedTaskSpec(tasksRepo(ctx.db), input.taskId);
    return { origin: spec.checks_origin, checks: spec.checks, prohibited: spec.prohibited, notes };
  },
  'tasks.fixtureRows': (input, ctx) => fixtureRows(tasksRepo(ctx.db), input.taskId, input.service, input.fixtureEnv),
  'tasks.updateFixtureCell': (input, ctx) => {
    const out = updateFixtureCell(ctx.db, input, ctx.now());
    if (out.status) ctx.touch('tasks'), ctx.touch('validation_reports');
    return out;
  },
  'tasks.versionDiff': (input, ctx) => versionDiff(ctx.db, input.taskId, input.version, input.against),
  'tasks.revert': (input, ctx) => {
    const out = revertTo(ctx.db, input.taskId, input.version, ctx.now());
    ctx.touch('tasks');
    ctx.touch('validation_reports');
    return out;
  },
} satisfies Partial<HandlerMap>;
