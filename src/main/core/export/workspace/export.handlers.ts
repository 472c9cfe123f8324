import fs from 'node:fs';
import path from 'node:path';
import type { HandlerMap } from '../../lib/handler-types';
import type { SftSelection } from '../../../../shared/contract/export.contract';
import { DEFAULT_LENGTH_BUDGET, DEFAULT_POOLS } from '../../../../shared/contract/entities/export';
import type { ReadDb } from '../../db/sqlite';
import { AppError } from '../../lib/errors';
import { missingIn, refuseUnknown, refuseUnknownTasks } from '../../lib/unknown-names';
import { previewAdvantages } from '../advantages/preview';
import { unsupportedReason } from '../advantages/conventions';
import { resolveSettings } from '../advantages/settings';
import { taskClock } from '../export-task';
import { refuseReplacing } from '../export-target';
import { diffManifests, lintWrittenExport, readManifest } from '../sft';
import { DEFAULT_TEMPLATE, RenderCheck } from '../sft/render/render-check';
import { curationState } from './curation-state';
import { rlInputs } from './rl-inputs';
import { RedactionTally } from './sft-records';
import { sftPreviewOf } from './sft-preview';

/**
 * An existing output folder is refused before a job starts: without overwrite always; with it,
 * unless it is a previous export that may be replaced (export-target.ts). The job asks again.
 */
function refuseExisting(outDir: string, overwrite: boolean, workspacePath: string): void {
  const target = path.resolve(outDir);
  let exists = true;
  try {
    fs.lstatSync(target);
  } catch {
    exists = false;
  }
  if (!exists) return;
  if (!overwrite)
    throw new AppError(
      'CONFLICT',
      `the export folder ${target} already exists; choose another folder or ask to overwrite a previous export`,
    );
  refuseReplacing(target, workspacePath);
}

/**
 * A pool without a rule or a collection the workspace lacks selects nothing: the export would run and write an
 * empty dataset (every record rejected as unknown_pool, or none read). Refused before the job, naming them.
 */
function refuseUnknownSelection(db: ReadDb, s: SftSelection, pools: Record<string, unknown> | undefined): void {
  const known = Object.keys({ ...DEFAULT_POOLS, ...pools });
  if (s.pool !== undefined)
    refuseUnknown({
      noun: ['pool', 'pools'],
      given: [s.pool],
      unknown: new Set(known.includes(s.pool) ? [] : [s.pool]),
      path: ['selection', 'pool'],
      list: false,
      known,
    });
  if (!s.collections?.length) return;
  const unknown = missingIn(db, 'collections', 'name', s.collections);
  if (!unknown.size) return;
  const names = db.prepare('SELECT name FROM collections ORDER BY name LIMIT 13').all() as { name: string }[];
  refuseUnknown({
    noun: ['collection', 'collections'],
    given: s.collections,
    unknown,
    path: ['selection', 'collections'],
    known: names.map((r) => r.name),
    hint: 'the trajectories grid (or `coworkenv call trajectories.collections`) lists them',
  });
}

const rowCount = (ctx: { db: { prepare(s: string): { get(): unknown } } }) =>
  (ctx.db.prepare('SELECT count(*) AS n FROM trajectories').get() as { n: number }).n;

export const exportHandlers = {
  'export.curation': (_input, ctx) => curationState(ctx.db),
  // Seconds to minutes on a large workspace: in a query worker, so every other call is answered meanwhile.
  'export.sftPreview': async (input, ctx) => {
    const { key, ...query } = input;
    const off = ctx.jobs.offThread('export.sftPreview', query, key);
    return off ? ((await off) as ReturnType<typeof sftPreviewOf>) : sftPreviewOf(ctx.db, input);
  },
  'export.sft': (input, ctx) => {
    refuseUnknownSelection(ctx.db, input.selection, input.options.pools);
    refuseExisting(input.outDir, input.overwrite, ctx.workspacePath);
    return { jobId: ctx.jobs.start('export.sft', { ...input, rows: rowCount(ctx) }) };
  },
  'export.rlPreview': (input, ctx) => {
    const { tasks, rollouts, groups, unredacted } = rlInputs(ctx.db, input.selection, new RedactionTally());
    const now = new Date(ctx.now());
    const { preview } = previewAdvantages({
      tasks,
      rollouts,
      groups,
      unredacted,
      settings: resolveSettings({
        method: input.advantage,
        ...(input.convention ? { convention: input.convention } : {}),
      }),
      clockOf: (t) => taskClock(t.spec, now),
    });
    return { preview, tasks: tasks.length, rollouts: rollouts.length };
  },
  'export.rl': (input, ctx) => {
    const unsupported = input.convention ? unsupportedReason(input.convention, input.advantage) : null;
    if (unsupported) throw new AppError('INVALID_INPUT', unsupported, [{ path: ['convention'], message: unsupported }]);
    refuseUnknownTasks(ctx.db, input.selection.taskIds, ['selection', 'taskIds']);
    refuseExisting(input.outDir, input.overwrite, ctx.workspacePath);
    return { jobId: ctx.jobs.start('export.rl', input) };
  },
  'export.clawEval': (input, ctx) => {
    refuseUnknownTasks(ctx.db, input.taskIds, ['taskIds']);
    refuseExisting(input.outDir, input.overwrite, ctx.workspacePath);
    return { jobId: ctx.jobs.start('export.clawEval', input) };
  },
  'export.diff': (input) => diffManifests(readManifest(input.a), readManifest(input.b)),
  'export.lint': async (input) => {
    const manifest = readManifest(input.dir);
    const render = input.render
      ? new RenderCheck(
          manifest.dialect,
          input.template ?? DEFAULT_TEMPLATE[manifest.dialect],
          input.budget ?? DEFAULT_LENGTH_BUDGET,
        )
      : null;
    const findings = await lintWrittenExport(input.dir, render);
    return {
      dialect: manifest.dialect,
      render: render?.summary() ?? null,
      rows: manifest.report.exported,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      findings: findings.slice(0, input.limit),
    };
  },
} satisfies Partial<HandlerMap>;
