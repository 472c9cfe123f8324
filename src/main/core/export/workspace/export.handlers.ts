import fs from 'node:fs';
import path from 'node:path';
import type { HandlerMap } from '../../lib/handler-types';
import { AppError } from '../../lib/errors';
import { previewAdvantages } from '../advantages/preview';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../advantages/settings';
import { taskClock } from '../export-task';
import { refuseReplacing } from '../export-target';
import { diffManifests, lintExport, previewSft, readManifest } from '../sft';
import { curationState } from './curation-state';
import { rlInputs } from './rl-inputs';
import { admittedOf, RedactionTally, workspaceSftRecords } from './sft-records';

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

const rowCount = (ctx: { db: { prepare(s: string): { get(): unknown } } }) =>
  (ctx.db.prepare('SELECT count(*) AS n FROM trajectories').get() as { n: number }).n;

export const exportHandlers = {
  'export.curation': (_input, ctx) => curationState(ctx.db),
  'export.sftPreview': (input, ctx) => {
    const tally = new RedactionTally();
    const preview = previewSft({
      records: workspaceSftRecords(ctx.db, input.selection, tally),
      dialect: input.dialect,
      options: { ...input.options, admittedBuckets: admittedOf(input.selection) },
      examples: input.examples,
      ...(input.maxBodies === null ? {} : { sampleBodies: input.maxBodies }),
    });
    return { preview, curation: curationState(ctx.db), redaction: tally.summary() };
  },
  'export.sft': (input, ctx) => {
    refuseExisting(input.outDir, input.overwrite, ctx.workspacePath);
    return { jobId: ctx.jobs.start('export.sft', { ...input, rows: rowCount(ctx) }) };
  },
  'export.rlPreview': (input, ctx) => {
    const { tasks, rollouts } = rlInputs(ctx.db, input.selection, new RedactionTally());
    const now = new Date(ctx.now());
    const { preview } = previewAdvantages({
      tasks,
      rollouts,
      settings: { ...DEFAULT_ADVANTAGE_SETTINGS, method: input.advantage },
      clockOf: (t) => taskClock(t.spec, now),
    });
    return { preview, tasks: tasks.length, rollouts: rollouts.length };
  },
  'export.rl': (input, ctx) => {
    refuseExisting(input.outDir, input.overwrite, ctx.workspacePath);
    return { jobId: ctx.jobs.start('export.rl', input) };
  },
  'export.clawEval': (input, ctx) => {
    refuseExisting(input.outDir, input.overwrite, ctx.workspacePath);
    return { jobId: ctx.jobs.start('export.clawEval', input) };
  },
  'export.diff': (input) => diffManifests(readManifest(input.a), readManifest(input.b)),
  'export.lint': (input) => {
    const manifest = readManifest(input.dir);
    if (manifest.dialect === 'verl')
      throw new AppError('BAD_REQUEST', 'a verl export is parquet: it is linted as it is written (see its lint.json)');
    const findings = lintExport(input.dir);
    return {
      dialect: manifest.dialect,
      rows: manifest.report.exported,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      findings: findings.slice(0, input.limit),
    };
  },
} satisfies Partial<HandlerMap>;
