import { GradeResult } from '../../../shared/contract/entities/checks';
import type { HandlerMap } from '../lib/handler-types';
import { AppError, notFound } from '../lib/errors';
import { writeTrace } from '../traces';
import { importTrace } from './import-trace';
import { resolveImport } from './import/import-start';
import { loadTrajectory } from './load-trajectory';
import { runsRepo } from './runs.repo';
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
  'trajectories.importTrace': importTrace,
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
      `trajectory ${input.id} was imported from ${row.source_format}, not from a Claw-Eval trace; trajectories.get ` +
        `gives it in the canonical shape`,
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
