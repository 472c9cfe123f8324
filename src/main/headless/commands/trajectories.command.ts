import { finishedJob } from '../cli/finished-job';
import { jobResult } from '../../../shared/contract/job-result';
import fs from 'node:fs';
import type { ImportFormat, ImportResult } from '../../../shared/contract/entities/trajectory-row';
import { defineCommand, str, strs, type CommandArgs, type RunContext } from '../cli/command';

const FORMATS = ['auto', 'claw-eval', 'tau-bench', 'tau2', 'openai-jsonl', 'sharegpt'];
const USAGE =
  'trajectories import <file or folder>… [--format auto|claw-eval|tau-bench|tau2|openai-jsonl|sharegpt] ' +
  '[--collection NAME] [--supersedes NAME]… [--task ID] [--agent LABEL] [--tools FILE]';

/**
 * `trajectories import <file…>`: the trajectories.import job, its progress on stderr, then one line
 * per file, every issue as `file:line: message` (all of them, paged), and a summary. Exit 1 when
 * anything was refused or the job did not finish.
 */
export async function runImport({ positionals, flags }: CommandArgs, ctx: RunContext, forced?: ImportFormat) {
  if (!positionals.length) return ctx.usage(USAGE);
  const format = (forced ?? str(flags, 'format') ?? 'auto') as ImportFormat;
  if (!FORMATS.includes(format)) return ctx.usage(`--format must be one of ${FORMATS.join(', ')}, not "${format}"`);
  for (const p of positionals) if (!present(p)) return ctx.usage(`cannot read ${p}: no such file or folder`);
  const collection = str(flags, 'collection');
  const task = str(flags, 'task');
  const agent = str(flags, 'agent');
  const tools = str(flags, 'tools');
  if (tools !== undefined && !present(tools)) return ctx.usage(`cannot read --tools ${tools}: no such file`);
  const started = await ctx.call('trajectories.import', {
    paths: positionals,
    format,
    supersedes: strs(flags, 'supersedes'),
    ...(collection ? { collection } : {}),
    ...(task ? { taskId: task } : {}),
    ...(agent ? { agent } : {}),
    ...(tools ? { tools } : {}),
  });
  if (!started.ok) return ctx.print(started);
  const job = await finishedJob(ctx, started.data.jobId);
  if (!job) return 1;
  const result = jobResult(job, 'trajectories.import');
  if (ctx.json) ctx.out(`${JSON.stringify({ ok: true, data: result })}\n`);
  else await render(ctx, result);
  return result.refused > 0 || result.issueCount > 0 ? 1 : 0;
}

/**
 * Whether `p` names something (lstat, not existsSync): a symlink loop or a dangling symlink exists, but
 * existsSync says no; the import then says what is wrong with it instead of "no such file".
 */
function present(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

async function render(ctx: RunContext, r: ImportResult): Promise<void> {
  for (const f of r.files) {
    const what = f.error
      ? `refused: ${f.error}`
      : `${f.records} records, ${f.stored} stored, ${f.duplicates} duplicates, ${f.refused} refused` +
        `${f.warned ? `, ${f.warned} with warnings` : ''}`;
    ctx.out(`${f.path} (${f.format ?? 'unknown format'} → collection ${f.collection}): ${what}\n`);
  }
  // Every issue, in the form editors and terminals link to the line.
  let issues = r.issues;
  for (let offset = issues.length; ; ) {
    for (const i of issues)
      if (i.file !== null || i.line !== null)
        ctx.err(`${i.file ?? ''}${i.line !== null ? `:${i.line}` : ''}: ${i.message}\n`);
      else ctx.err(`${i.message}\n`);
    if (offset >= r.issueCount) break;
    const page = await ctx.call('trajectories.importIssues', { runId: r.runId, offset, limit: 5000 });
    if (!page.ok || !page.data.issues.length) break;
    issues = page.data.issues;
    offset += issues.length;
  }
  const t = r.toolSchemas;
  if (t)
    ctx.out(
      `tool schemas: ${t.tools} from ${t.file} (sha256 ${t.sha256.slice(0, 12)}…), for the records without their own\n`,
    );
  ctx.out(
    `${r.stored} stored (${r.graded} graded, ${r.external} of tasks not in the workspace), ${r.duplicates} ` +
      `duplicates, ${r.refused} refused` +
      `${r.superseded ? `, ${r.superseded} superseded` : ''}` +
      // Kept, not refused: the grid's Warnings column filters them (trajectories.list, a filter on warnings).
      `${r.warned ? `, ${r.warned} stored with warnings` : ''}; ${r.issueCount} issue` +
      `${r.issueCount === 1 ? '' : 's'} (run ${r.runId})\n`,
  );
}

export const trajectoriesImportCommand = defineCommand({
  words: ['trajectories', 'import'],
  args: '<file or folder>…',
  summary: 'import trajectories (Claw-Eval traces, τ-bench, τ²-bench, OpenAI / messages JSONL, sharegpt) as a job',
  options: {
    format: {
      type: 'string',
      value: 'FORMAT',
      description: `${FORMATS.join('|')} (default auto: told by the first record)`,
    },
    collection: {
      type: 'string',
      value: 'NAME',
      description: "the collection (default: each file's name; Claw-Eval traces: their folder's name)",
    },
    supersedes: {
      type: 'string',
      multiple: true,
      value: 'NAME',
      description: 'a collection this import replaces for the tasks it holds (repeatable)',
    },
    task: { type: 'string', value: 'ID', description: 'grade every record against this workspace task' },
    agent: { type: 'string', value: 'LABEL', description: 'the agent label (default: the model the source names)' },
    tools: {
      type: 'string',
      value: 'FILE',
      description: 'tool schemas for records without their own: an OpenAI tools list, or JSON/JSONL records with tools',
    },
  },
  details: [
    'Records of tasks the workspace holds are graded with the shared grader; others are kept with their own rewards.',
    'Duplicates (same collection, task, trial and content) are skipped and counted. Every refused record is',
    'printed as file:line: message on stderr. Exit code 1 when anything was refused; an interrupted import',
    'resumes with `coworkenv call jobs.resume`.',
    'τ-bench and τ²-bench results carry no tool schemas, and SFT exports need them: --tools FILE gives them (the',
    "union by name of an OpenAI tools list, or of the `tools` of JSON/JSONL records such as τ²-bench's own SFT files;",
    'one name defined two ways is refused). Stored once per import; the export manifest names the file and its hash.',
  ],
  run: (args, ctx) => runImport(args, ctx),
});
