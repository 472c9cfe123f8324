import { finishedJob } from '../cli/finished-job';
import { jobResult } from '../../../shared/contract/job-result';
import fs from 'node:fs';
import path from 'node:path';
import type { ApiResult } from '../../../shared/contract';
import { DEFAULT_POOLS, type RenderSummary } from '../../../shared/contract/entities/export';
import type { Job } from '../../../shared/contract/jobs.contract';
import { bool, defineCommand, str, strs, type RunContext } from '../cli/command';
import { printRlResult, printSftResult, renderDiff } from './export-print';
import { RENDER_FLAGS, renderFlags, TEMPLATES } from './render-flags';
import { renderLine } from './render-line';

type LintAnswer = {
  rows: number;
  errors: number;
  warnings: number;
  findings: { recordId: string; severity: string; code: string; message: string }[];
  render: RenderSummary | null;
};

const DIALECTS = ['trl', 'openai', 'llamafactory', 'verl'] as const;
const ADVANTAGES = ['grpo', 'drgrpo', 'gdpo', 'gigpo'] as const;
const CONVENTIONS = ['paper', 'verl', 'trl'] as const;
const BUCKETS = ['KEEP', 'TRIVIAL', 'UNSOLVABLE', 'UNBUCKETED'] as const;

/** Exit codes of the export commands (help lists them). */
export const EXIT = { done: 0, failed: 1, usage: 2, exists: 3, nothingSelected: 4 } as const;
const EXIT_HELP = [
  'Exit codes: 0 written; 1 failed (the error is printed, nothing is left half-written); 2 usage;',
  '3 the output folder exists (pass --overwrite), or --overwrite was refused: it replaces only a previous export of',
  'this app holding nothing else, never a folder that holds the workspace; 4 nothing to export (nothing curated yet,',
  'or no tasks).',
];

const OUT = {
  type: 'string',
  value: 'DIR',
  description: 'the export folder (must not exist unless --overwrite)',
} as const;
const OVERWRITE = {
  type: 'boolean',
  description: 'replace a previous export of this app (refused for any other folder)',
} as const;

/** Refused before anything starts: the folder exists and --overwrite was not given. */
function existing(ctx: RunContext, out: string, overwrite: boolean): number | null {
  if (overwrite || !fs.existsSync(out)) return null;
  const message = `the export folder ${path.resolve(out)} already exists; choose another folder or pass --overwrite`;
  if (ctx.json) ctx.out(`${JSON.stringify({ ok: false, error: { code: 'CONFLICT', message } })}\n`);
  else ctx.err(`error CONFLICT: ${message}\n`);
  return EXIT.exists;
}

/** Starts a job and follows it; answers the finished job or an exit code. */
async function runJob(ctx: RunContext, started: ApiResult<{ jobId: string }>): Promise<Job | number> {
  if (!started.ok) return started.error.code === 'CONFLICT' ? (ctx.print(started), EXIT.exists) : ctx.print(started);
  const job = await finishedJob(ctx, started.data.jobId, {
    ended: (state) => `the export job ended ${state}`,
    // A job error was printed with the progress lines already.
    explain: (message, j) => (j.error ? undefined : message),
  });
  return job ?? EXIT.failed;
}

export const exportSftCommand = defineCommand({
  words: ['export', 'sft'],
  summary: 'write an SFT dataset of the curated trajectories for TRL, OpenAI, LLaMA-Factory or verl',
  options: {
    dialect: { type: 'string', value: DIALECTS.join('|'), description: 'the trainer format' },
    out: OUT,
    pool: {
      type: 'string',
      value: 'NAME',
      description: "only the tasks in this pool (default: every pool, each record by its task's pool rule)",
    },
    'min-reward': {
      type: 'string',
      value: 'R|none',
      description: 'override the reward threshold (0–1) of --pool, or of every pool; none admits records without one',
    },
    bucket: {
      type: 'string',
      multiple: true,
      value: BUCKETS.join('|'),
      description: 'admitted bucket (repeatable; default KEEP and TRIVIAL)',
    },
    'all-uncurated': { type: 'boolean', description: 'also admit trajectories without a bucket (nothing curated yet)' },
    collection: { type: 'string', multiple: true, value: 'NAME', description: 'only these collections (repeatable)' },
    options: {
      type: 'string',
      value: 'JSON',
      description: 'further SFT options (converter, reasoning, datasetName…)',
    },
    ...RENDER_FLAGS,
    'no-render': { type: 'boolean', description: 'do not render and measure the records (faster)' },
    overwrite: OVERWRITE,
  },
  details: [
    'Selection: trajectories with an include override, or without an override and an admitted bucket; replacement',
    'collections supersede, duplicates (task, trial) within one run of one agent and model in one collection keep',
    'the latest (other runs and models are other attempts), then the pool threshold, the converter filters',
    'and the dialect lint. Every rejection is counted in rejections.jsonl and the manifest. Trajectories pass through',
    'credential redaction. With nothing curated yet the command says so and stops unless --all-uncurated.',
    "Records without a reward (a prepared SFT set such as τ²-bench's) pass only with --min-reward none; the manifest",
    'then says rewards were not required.',
    ...EXIT_HELP,
  ],
  async run({ flags }, ctx) {
    const dialect = str(flags, 'dialect');
    const out = str(flags, 'out');
    if (!dialect || !out)
      return ctx.usage('export sft --dialect trl|openai|llamafactory|verl --out DIR [--pool NAME] [--overwrite]');
    if (!(DIALECTS as readonly string[]).includes(dialect))
      return ctx.usage(`--dialect must be one of ${DIALECTS.join(', ')}, not "${dialect}"`);
    const buckets = strs(flags, 'bucket');
    const bad = buckets.find((b) => !(BUCKETS as readonly string[]).includes(b));
    if (bad) return ctx.usage(`--bucket must be one of ${BUCKETS.join(', ')}, not "${bad}"`);
    const pool = str(flags, 'pool');
    let options: Record<string, unknown> = {};
    try {
      options = JSON.parse(str(flags, 'options') ?? '{}') as Record<string, unknown>;
    } catch (e) {
      return ctx.usage(`--options is not JSON: ${(e as Error).message}`);
    }
    const minText = str(flags, 'min-reward');
    if (minText !== undefined) {
      // `none`, explicitly: a record without a reward is admitted (a prepared SFT set); 0 still needs a reward.
      const min = minText === 'none' ? null : minText.trim() === '' ? Number.NaN : Number(minText);
      if (min !== null && !(min >= 0 && min <= 1))
        return ctx.usage(`--min-reward must be between 0 and 1, or none, not "${minText}"`);
      const pools = (options.pools ?? {}) as Record<string, { converter?: boolean } | undefined>;
      // Without --pool the records keep their tasks' pools: the threshold given is every known pool's.
      const named = pool === undefined ? Object.keys({ ...DEFAULT_POOLS, ...pools }) : [pool];
      const edited = named.map((p) => {
        const converter = pools[p]?.converter ?? DEFAULT_POOLS[p]?.converter ?? false;
        return [p, { minReward: min, converter }] as const;
      });
      options = { ...options, pools: { ...pools, ...Object.fromEntries(edited) } };
    }
    const render = renderFlags(flags);
    if (!render.ok) return ctx.usage(render.message);
    if (render.value.template) options = { ...options, chatTemplate: render.value.template };
    if (render.value.budget) options = { ...options, lengthBudget: render.value.budget };
    if (bool(flags, 'no-render')) options = { ...options, renderCheck: false };
    const overwrite = bool(flags, 'overwrite');
    const refused = existing(ctx, out, overwrite);
    if (refused !== null) return refused;
    const allUncurated = bool(flags, 'all-uncurated');
    const curation = await ctx.call('export.curation', {});
    if (!curation.ok) return ctx.print(curation);
    if (
      curation.data.trajectories === 0 ||
      (curation.data.nothingCurated && !allUncurated && !buckets.includes('UNBUCKETED'))
    ) {
      const message = curation.data.notice!;
      if (ctx.json) ctx.out(`${JSON.stringify({ ok: false, error: { code: 'CONFLICT', message } })}\n`);
      else ctx.err(`${message}\n`);
      return EXIT.nothingSelected;
    }
    const collections = strs(flags, 'collection');
    const selection = {
      ...(pool === undefined ? {} : { pool }),
      allUncurated,
      ...(buckets.length ? { admittedBuckets: buckets as (typeof BUCKETS)[number][] } : {}),
      ...(collections.length ? { collections } : {}),
    };
    const started = await ctx.call('export.sft', {
      dialect: dialect as (typeof DIALECTS)[number],
      outDir: out,
      overwrite,
      selection,
      options: options as never,
    });
    const job = await runJob(ctx, started);
    if (typeof job === 'number') return job;
    return printSftResult(ctx, jobResult(job, 'export.sft'));
  },
});

export const exportRlCommand = defineCommand({
  words: ['export', 'rl'],
  summary: 'write an RL package (tasks, environments, verl parquet, rollouts with group advantages)',
  options: {
    out: OUT,
    advantage: { type: 'string', value: ADVANTAGES.join('|'), description: 'group advantage method (default grpo)' },
    convention: {
      type: 'string',
      value: CONVENTIONS.join('|'),
      description: 'whose σ/ε/singleton rules the advantages follow (default verl; trl for gdpo)',
    },
    tokenizer: {
      type: 'string',
      value: 'qwen2.5|qwen3|llama3.1',
      description: "the model's tokenizer: verl length limits in its tokens (default: characters)",
    },
    task: { type: 'string', multiple: true, value: 'ID', description: 'only these tasks (repeatable)' },
    run: { type: 'string', multiple: true, value: 'ID', description: 'only rollouts of these runs (repeatable)' },
    collection: { type: 'string', multiple: true, value: 'NAME', description: 'only these collections (repeatable)' },
    agent: { type: 'string', multiple: true, value: 'NAME', description: 'only rollouts of these agents (repeatable)' },
    'no-rollouts': { type: 'boolean', description: 'tasks and environments only' },
    overwrite: OVERWRITE,
  },
  details: [
    'Default tasks: those with graded rollouts in the workspace (else all). Rollouts: not superseded, latest per',
    "(task, run, agent, trial), redacted. A group is one task's rollouts by one run (or collection) and one agent:",
    'never a mix. `coworkenv env serve --package DIR` serves the package.',
    ...EXIT_HELP,
  ],
  async run({ flags }, ctx) {
    const out = str(flags, 'out');
    if (!out)
      return ctx.usage(
        'export rl --out DIR [--advantage grpo|drgrpo|gdpo|gigpo] [--convention paper|verl|trl] [--task ID]… ' +
          '[--run ID]… [--agent NAME]…',
      );
    const advantage = str(flags, 'advantage') ?? 'grpo';
    if (!(ADVANTAGES as readonly string[]).includes(advantage))
      return ctx.usage(`--advantage must be one of ${ADVANTAGES.join(', ')}, not "${advantage}"`);
    const convention = str(flags, 'convention');
    if (convention !== undefined && !(CONVENTIONS as readonly string[]).includes(convention))
      return ctx.usage(`--convention must be one of ${CONVENTIONS.join(', ')}, not "${convention}"`);
    const tokenizer = str(flags, 'tokenizer');
    if (tokenizer !== undefined && !(TEMPLATES as readonly string[]).includes(tokenizer))
      return ctx.usage(`--tokenizer must be one of ${TEMPLATES.join(', ')}, not "${tokenizer}"`);
    const overwrite = bool(flags, 'overwrite');
    const refused = existing(ctx, out, overwrite);
    if (refused !== null) return refused;
    const tasks = strs(flags, 'task');
    const runs = strs(flags, 'run').map(Number);
    const badRun = strs(flags, 'run').find((r) => !/^[1-9]\d*$/.test(r));
    if (badRun !== undefined) return ctx.usage(`--run takes a run id (a positive integer), not "${badRun}"`);
    const collections = strs(flags, 'collection');
    const agents = strs(flags, 'agent');
    const started = await ctx.call('export.rl', {
      outDir: out,
      overwrite,
      advantage: advantage as (typeof ADVANTAGES)[number],
      ...(convention ? { convention: convention as (typeof CONVENTIONS)[number] } : {}),
      ...(tokenizer ? { tokenizer: tokenizer as (typeof TEMPLATES)[number] } : {}),
      selection: {
        ...(tasks.length ? { taskIds: tasks } : {}),
        ...(runs.length ? { runs } : {}),
        ...(collections.length ? { collections } : {}),
        ...(agents.length ? { agents } : {}),
        withoutRollouts: bool(flags, 'no-rollouts'),
      },
    });
    if (!started.ok && /holds no tasks/.test(started.error.message)) return (ctx.print(started), EXIT.nothingSelected);
    const job = await runJob(ctx, started);
    if (typeof job === 'number') return job;
    return printRlResult(ctx, jobResult(job, 'export.rl'));
  },
});

export const exportClawEvalCommand = defineCommand({
  words: ['export', 'claw-eval'],
  summary: 'write workspace tasks as Claw-Eval task folders with the generic grader.py',
  options: {
    out: OUT,
    task: { type: 'string', multiple: true, value: 'ID', description: 'only these tasks (repeatable)' },
    overwrite: OVERWRITE,
  },
  details: ['Imported tasks are written back verbatim; fixtures are the tasks’ own data.', ...EXIT_HELP],
  async run({ flags }, ctx) {
    const out = str(flags, 'out');
    if (!out) return ctx.usage('export claw-eval --out DIR [--task ID]… [--overwrite]');
    const overwrite = bool(flags, 'overwrite');
    const refused = existing(ctx, out, overwrite);
    if (refused !== null) return refused;
    const tasks = strs(flags, 'task');
    const started = await ctx.call('export.clawEval', {
      outDir: out,
      overwrite,
      ...(tasks.length ? { taskIds: tasks } : {}),
    });
    const job = await runJob(ctx, started);
    if (typeof job === 'number') return job;
    const r = jobResult(job, 'export.clawEval');
    if (ctx.json) ctx.out(`${JSON.stringify({ ok: true, data: r })}\n`);
    else {
      for (const w of r.warnings) ctx.err(`warning: ${w}\n`);
      const c = r.counts;
      const kinds = `${c.verbatim} verbatim, ${c.from_spec} from spec`;
      ctx.out(`${c.tasks} tasks (${kinds}), ${c.files} files → ${r.outDir}\n`);
    }
    return EXIT.done;
  },
});

export const exportDiffCommand = defineCommand({
  words: ['export', 'diff'],
  workspace: 'none',
  args: '<a> <b>',
  summary: 'what changed between two SFT exports (folders or manifest.json files)',
  details: ['Exit code 0 whether or not they differ; 1 when a manifest cannot be read; 2 usage.'],
  async run({ positionals }, ctx) {
    const [a, b] = positionals;
    if (!a || !b || positionals.length !== 2) return ctx.usage('export diff <a> <b>');
    return ctx.print(await ctx.call('export.diff', { a, b }), (d: never) => renderDiff(ctx, d));
  },
});

export const exportLintCommand = defineCommand({
  words: ['export', 'lint'],
  workspace: 'none',
  args: '<dir>',
  summary:
    "re-read an SFT export (JSONL, or verl's parquet), lint it with its trainer's rules, render it with a chat " +
    'template',
  options: { ...RENDER_FLAGS, 'no-render': { type: 'boolean', description: "only the trainer's rules" } },
  details: [
    'Each record is rendered with the template as tokenizer.apply_chat_template would; records the template refuses',
    '(Llama 3.1: parallel calls) and records over the budget are warnings, summed up at the end.',
    'Exit code 0 without errors, 1 with lint errors (or an unreadable export), 2 usage.',
  ],
  async run({ positionals, flags }, ctx) {
    const [dir] = positionals;
    if (!dir || positionals.length !== 1) return ctx.usage('export lint <dir> [--template T] [--max-tokens N]');
    const rf = renderFlags(flags);
    if (!rf.ok) return ctx.usage(rf.message);
    const r = await ctx.call('export.lint', { dir, limit: 10_000, render: !bool(flags, 'no-render'), ...rf.value });
    const code = ctx.print(r, (d: LintAnswer) => {
      for (const f of d.findings) ctx.out(`record ${f.recordId}: ${f.severity} ${f.code}: ${f.message}\n`);
      ctx.out(`${d.rows} records: ${d.errors} errors, ${d.warnings} warnings\n`);
      if (d.render) ctx.out(`${renderLine(d.render)}\n`);
    });
    return code === 0 && r.ok && r.data.errors > 0 ? EXIT.failed : code;
  },
});
