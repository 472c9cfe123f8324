import type { ParsedInput } from '../../../../shared/contract';
import type { ChatTemplateId } from '../../../../shared/contract/entities/export';
import type { TextCounter } from '../rl/verl-lengths';
import { tokenCounter } from '../sft/render/token-counter';
import type { JobContext, JobDefinition } from '../../jobs/job-definition';
import type { JobResult } from '../../jobs/job-types';
import { exportClawEval } from '../claw-eval/export-claw-eval';
import { exportRlPackage } from '../rl/export-rl';
import { exportSft, type SftProgress } from '../sft';
import { exportTasks, allTaskIds, rlInputs } from './rl-inputs';
import { admittedOf, RedactionTally, workspaceSftRecords } from './sft-records';

declare module '../../jobs/job-types' {
  interface JobInputs {
    'export.sft': SftJobInput;
    'export.rl': ParsedInput<'export.rl'>;
    'export.clawEval': ParsedInput<'export.clawEval'>;
  }
}

/** Export jobs write files, not the workspace: progress and cancellation go through empty batches. */
const tick = (ctx: JobContext, done: number, message: string) => ctx.commitBatch(() => {}, done, message, []);

export type SftJobInput = ParsedInput<'export.sft'> & { rows: number };

/**
 * `export.sft`: the workspace's trajectories through the SFT core into a new folder. Progress: the
 * metadata pass (rows), then the conversion pass (rows again). A cancel throws from the progress
 * callback and the core removes its temporary folder. A resumed job starts over (nothing is kept
 * between attempts: the folder appears only when complete).
 */
export const sftExportJob: JobDefinition<SftJobInput, JobResult<'export.sft'>> = {
  total: (input) => Math.max(1, input.rows * 2),
  run(ctx, input) {
    const tally = new RedactionTally();
    const rows = Math.max(1, input.rows);
    const onProgress = (p: SftProgress) => {
      const at =
        p.phase === 'metadata' ? p.done : rows + Math.min(rows, Math.round((p.done / Math.max(1, p.total)) * rows));
      tick(ctx, at, `${p.phase}: ${p.done} of ${p.total}`);
    };
    const r = exportSft({
      records: workspaceSftRecords(ctx.db, input.selection, tally),
      dialect: input.dialect,
      outDir: input.outDir,
      options: { ...input.options, admittedBuckets: admittedOf(input.selection), overwrite: input.overwrite },
      onProgress,
      workspacePath: ctx.workspacePath,
    });
    tick(ctx, rows * 2, `${r.report.exported} records written to ${r.outDir}`);
    return { ...r, dialect: input.dialect, redaction: tally.summary() };
  },
};

/** The RL package's length counter: the real tokenizer shipped for the model (the SFT render lint's). */
const modelTokens = (id: ChatTemplateId): TextCounter => ({
  name: `${id} tokenizer (resources/tokenizers)`,
  unit: 'tokens',
  countTokens: (text) => tokenCounter(id).count(text),
});

/** `export.rl`: read the tasks and rollouts, then the core writes the package (three progress steps). */
export const rlExportJob: JobDefinition<ParsedInput<'export.rl'>, JobResult<'export.rl'>> = {
  total: () => 3,
  async run(ctx, input) {
    tick(ctx, 0, 'reading tasks and rollouts');
    const tally = new RedactionTally();
    const { tasks, rollouts, groups, unredacted } = rlInputs(ctx.db, input.selection, tally);
    tick(ctx, 1, `${tasks.length} tasks, ${rollouts.length} rollouts: computing ${input.advantage} advantages`);
    const r = await exportRlPackage({
      tasks,
      rollouts,
      groups,
      unredacted,
      advantage: { method: input.advantage, ...(input.convention ? { convention: input.convention } : {}) },
      ...(input.tokenizer ? { tokenizer: modelTokens(input.tokenizer) } : {}),
      outDir: input.outDir,
      overwrite: input.overwrite,
      workspacePath: ctx.workspacePath,
      selection: {
        ...input.selection,
        advantage: input.advantage,
        convention: input.convention ?? null,
        tokenizer: input.tokenizer ?? null,
        redaction: tally.summary(),
      },
    });
    tick(ctx, 3, `package ${r.packageId} written to ${r.outDir}`);
    return {
      outDir: r.outDir,
      packageId: r.packageId,
      counts: r.counts,
      files: r.files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 })),
      noSignalGroups: r.preview.counts.no_signal_groups,
      redaction: tally.summary(),
    };
  },
};

/** `export.clawEval`: task folders; fixtures are the tasks' own data and are written as stored. */
export const clawEvalExportJob: JobDefinition<ParsedInput<'export.clawEval'>, JobResult<'export.clawEval'>> = {
  total: () => 2,
  async run(ctx, input) {
    tick(ctx, 0, 'reading tasks');
    const ids = input.taskIds?.length ? input.taskIds : allTaskIds(ctx.db);
    const tasks = exportTasks(ctx.db, ids);
    tick(ctx, 1, `${tasks.length} tasks: writing`);
    const r = await exportClawEval({
      tasks,
      outDir: input.outDir,
      overwrite: input.overwrite,
      workspacePath: ctx.workspacePath,
      selection: { ids },
    });
    tick(ctx, 2, `${r.counts.tasks} task folders written to ${r.outDir}`);
    return { ...r, files: r.files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 })) };
  },
};
