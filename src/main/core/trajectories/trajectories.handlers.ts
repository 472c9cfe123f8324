import { GradeResult } from '../../../shared/contract/entities/checks';
import type { HandlerMap } from '../lib/handler-types';
import { AppError, notFound } from '../lib/errors';
import { writeTrace } from '../traces';
import { importTrace } from './import-trace';
import { resolveImport } from './import/import-start';
import { loadTrajectory } from './load-trajectory';
import { runsRepo } from '../runs/runs.repo';
import { indexForSearch, searchSnippets } from './search-text';
import { supersession } from './supersede';
import { trajectoriesWriter } from './trajectories-writer.repo';
import { locateEvidence } from './stored-grade';
import { searchOf, textIds, textWhere, withFtsErrors } from './text-filter';
import { TRAJECTORY_TABLE, trajectoriesRepo } from './trajectories.repo';
import { pagedIds, pagedValues } from '../db/paged-list';

export const trajectoriesHandlers = {
  'trajectories.import': (input, ctx) => ({ jobId: ctx.jobs.start('trajectories.import', resolveImport(input)) }),
  'trajectories.importIssues': (input, ctx) => {
    const repo = runsRepo(ctx.db);
    if (!repo.run(input.runId)) throw notFound(`run ${input.runId}`);
    return { issues: repo.issues(input.runId, input.offset, input.limit), total: repo.issueCount(input.runId) };
  },
  'trajectories.importTrace': importTrace,
  'trajectories.list': ({ text, ...q }, ctx) =>
    withFtsErrors(() => trajectoriesRepo(ctx.db).list({ ...q, extra: textWhere(text) }), 'text'),
  'trajectories.values': ({ text, field, ...q }, ctx) =>
    withFtsErrors(() => pagedValues(ctx.db, TRAJECTORY_TABLE, field, { ...q, extra: textWhere(text) }), 'text'),
  'trajectories.ids': ({ text, ...q }, ctx) =>
    withFtsErrors(() => pagedIds<number>(ctx.db, TRAJECTORY_TABLE, { ...q, extra: textWhere(text) }), 'text'),
  'trajectories.get': (input, ctx) => {
    const repo = trajectoriesRepo(ctx.db);
    const row = repo.row(input.id);
    const body = repo.body(input.id);
    if (!row || !body) throw notFound(`trajectory ${input.id}`);
    const trajectory = loadTrajectory(ctx.db, row.source_format, body);
    const grade = body.grade === null ? null : GradeResult.parse(JSON.parse(body.grade));
    return { row, trajectory, grade: grade && locateEvidence(grade, trajectory), warnings: repo.warnings(input.id) };
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
    const { match, cjk } = searchOf(input);
    const found = withFtsErrors(() => repo.search({ match, ids: textIds(input) }, input.offset, input.limit));
    const texts = found.ids.flatMap((id) => {
      const row = repo.row(id);
      const body = repo.body(id);
      return row && body ? [{ id, text: indexForSearch(loadTrajectory(ctx.db, row.source_format, body)) }] : [];
    });
    const snippets = searchSnippets(texts, match, cjk);
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
