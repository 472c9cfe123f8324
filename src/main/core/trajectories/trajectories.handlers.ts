import { GradeResult } from '../../../shared/contract/entities/checks';
import type { HandlerMap } from '../lib/handler-types';
import { AppError, notFound } from '../lib/errors';
import { writeTrace } from '../traces';
import { TraceRecordError, readRecord } from './formats';
import { resolveImport } from './import/import-start';
import { prepareRecord, taskLookup } from './import/prepare';
import { loadTrajectory } from './load-trajectory';
import { runsRepo, runsWriter } from './runs.repo';
import { indexForSearch, searchSnippets } from './search-text';
import { supersession } from './supersede';
import { trajectoriesWriter } from './trajectories-writer.repo';
import { trajectoriesRepo } from './trajectories.repo';

/** words mode: every word must occur; a trailing * keeps prefix search; quotes make the rest literal. */
function wordsQuery(q: string): string {
  return q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => {
      const prefix = w.endsWith('*') && w.length > 1;
      const word = (prefix ? w.slice(0, -1) : w).replace(/"/g, '""');
      return `"${word}"${prefix ? '*' : ''}`;
    })
    .join(' ');
}

export const trajectoriesHandlers = {
  'trajectories.import': (input, ctx) => ({ jobId: ctx.jobs.start('trajectories.import', resolveImport(input)) }),
  'trajectories.importIssues': (input, ctx) => {
    const repo = runsRepo(ctx.db);
    if (!repo.run(input.runId)) throw notFound(`run ${input.runId}`);
    return { issues: repo.issues(input.runId, input.offset, input.limit), total: repo.issueCount(input.runId) };
  },
  /**
   * One trace in one transaction (mutations are synchronous): read, graded when its task is in the
   * workspace, stored with its text kept as it came so an export is byte-identical.
   */
  'trajectories.importTrace': (input, ctx) => {
    let read: ReturnType<typeof readRecord>;
    try {
      read = readRecord('claw-eval-trace', input.traceJsonl, { file: null, header: null });
    } catch (err) {
      if (!(err instanceof TraceRecordError)) throw err;
      throw new AppError(
        'INVALID_INPUT',
        `not a readable Claw-Eval trace: ${err.message}`,
        err.issues.map((i) => ({ path: ['traceJsonl', `line ${i.line}`], message: i.message })),
      );
    }
    const t = read.trajectory;
    const now = ctx.now();
    runsWriter(ctx.db).ensureCollection(input.collection, [], now);
    const raw = Buffer.from(input.traceJsonl, 'utf8');
    const prepared = prepareRecord(raw, read, {
      collection: input.collection,
      runId: null,
      contextId: null,
      file: null,
      line: null,
      taskId: input.taskId ?? null,
      agent: null,
      spec: taskLookup(ctx.db),
    });
    const warnings = [...prepared.warnings];
    const r = prepared.row;
    const stored = trajectoriesWriter(ctx.db).insert(r, now);
    if (stored.duplicate) {
      const prev = trajectoriesRepo(ctx.db).row(stored.id)!;
      if (input.taskId && input.taskId !== prev.task_id)
        warnings.push(
          `this trace is already stored as trajectory #${prev.id} of task ${prev.task_id}; --task ${input.taskId} was not applied`,
        );
      return {
        id: prev.id,
        taskId: prev.task_id,
        graded: prev.graded,
        score: prev.score,
        passed: prev.passed,
        warnings,
        duplicate: true,
      };
    }
    if (r.external) warnings.push(`task ${r.taskId} is not in the workspace: the trajectory is stored ungraded`);
    // Not an error: upstream's reader normalises the same things; the user should know the stored Trajectory differs in bytes.
    if (writeTrace(t) !== input.traceJsonl)
      warnings.push(
        'the trace is not byte-for-byte what upstream writes; it is exported exactly as imported, but the stored trajectory writes it back normalised',
      );
    supersession(ctx.db).afterInsert(input.collection, [r.taskId]);
    ctx.touch('trajectories', [stored.id]);
    return {
      id: stored.id,
      taskId: r.taskId,
      graded: r.grade !== null,
      score: r.grade?.score ?? null,
      passed: r.grade?.passed ?? null,
      warnings,
      duplicate: false,
    };
  },
  'trajectories.list': (input, ctx) => trajectoriesRepo(ctx.db).list(input),
  'trajectories.get': (input, ctx) => {
    const repo = trajectoriesRepo(ctx.db);
    const row = repo.row(input.id);
    const body = repo.body(input.id);
    if (!row || !body) throw notFound(`trajectory ${input.id}`);
    return {
      row,
      trajectory: loadTrajectory(ctx.db, row.source_format, body),
      grade: body.grade === null ? null : GradeResult.parse(JSON.parse(body.grade)),
    };
  },
  'trajectories.exportTrace': (input, ctx) => {
    const repo = trajectoriesRepo(ctx.db);
    const row = repo.row(input.id);
    const body = repo.body(input.id);
    if (!row || !body) throw notFound(`trajectory ${input.id}`);
    if (row.source_format === 'claw-eval-trace' && body.raw) return { traceJsonl: body.raw.toString('utf8') };
    if (row.source_format === 'studio') return { traceJsonl: writeTrace(loadTrajectory(ctx.db, 'studio', body)) };
    throw new AppError(
      'CONFLICT',
      `trajectory ${input.id} was imported from ${row.source_format}, not from a Claw-Eval trace; trajectories.get gives it in the canonical shape`,
    );
  },
  'trajectories.search': (input, ctx) => {
    const repo = trajectoriesRepo(ctx.db);
    const match = input.mode === 'words' ? wordsQuery(input.query) : input.query;
    if (!match) throw new AppError('INVALID_INPUT', 'the query has no words', [{ path: ['query'], message: 'empty' }]);
    let found: { ids: number[]; total: number };
    try {
      found = repo.search(match, input.offset, input.limit);
    } catch (err) {
      // The statement is fixed; an SQLITE_ERROR here is the query's (unterminated string, syntax, unknown column).
      if ((err as { code?: string }).code !== 'SQLITE_ERROR') throw err;
      throw new AppError('INVALID_INPUT', `not a valid search: ${(err as Error).message}`, [
        { path: ['query'], message: (err as Error).message },
      ]);
    }
    const texts = found.ids.flatMap((id) => {
      const row = repo.row(id);
      const body = repo.body(id);
      return row && body ? [{ id, text: indexForSearch(loadTrajectory(ctx.db, row.source_format, body)) }] : [];
    });
    const snippets = searchSnippets(texts, match);
    return {
      hits: found.ids.map((id) => ({ id, ...(snippets.get(id) ?? { snippet: '', highlights: [] }) })),
      total: found.total,
    };
  },
  'trajectories.delete': (input, ctx) => {
    const { deleted, touched } = trajectoriesWriter(ctx.db).delete(input.ids);
    supersession(ctx.db).afterDelete(touched);
    if (deleted) ctx.touch('trajectories');
    return { deleted };
  },
  'trajectories.collections': (_input, ctx) =>
    trajectoriesRepo(ctx.db)
      .collections()
      .map((c) => ({ ...c, supersedes: JSON.parse(c.supersedes) as string[] })),
} satisfies Partial<HandlerMap>;
