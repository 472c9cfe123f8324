import fs from 'node:fs';
import type { Output } from '../../../shared/contract';
import type { Evidence } from '../../../shared/contract/entities/checks';
import { bool, defineCommand, str } from '../cli/command';
import { runGradeUpstream, runUpstreamReport } from './grade-upstream';
import { storedGrades } from './grade-stored';

type GradeOut = Output<'grading.gradeTrace'>;

/**
 * `grade --task <id> --trace <file.jsonl>`: sugar for grading.gradeTrace; `grade --regrade`, `--disagreements`,
 * `--set-judge`, `--basis`: the stored trajectories' grades (grade-stored.ts).
 */
export const gradeCommand = defineCommand({
  words: ['grade'],
  summary: "grade a Claw-Eval trace against a stored task's checks; re-grade stored trajectories, list disagreements",
  options: {
    task: { type: 'string', value: 'ID', description: 'the stored task' },
    trace: { type: 'string', value: 'FILE', description: 'the trace JSONL' },
    upstream: { type: 'boolean', description: "also grade with the task's own grader.py (your Claw-Eval checkout)" },
    'claw-eval-root': { type: 'string', value: 'DIR', description: 'your Claw-Eval checkout (src/ and tasks/)' },
    'stub-judge': { type: 'string', value: 'X', description: 'a constant judge score (0–1) on both sides' },
    timeout: { type: 'string', value: 'S', description: "upstream grader's time limit in seconds (default 60)" },
    'upstream-report': { type: 'boolean', description: 'per task, stored upstream grades beside the app grades' },
    regrade: { type: 'boolean', description: 'grade the stored trajectories of --task or --collection again' },
    collection: { type: 'string', value: 'NAME', description: 'the collection (--regrade, --disagreements, --basis)' },
    'no-judge': { type: 'boolean', description: 'with --regrade: ask the judge nothing (its cache is still read)' },
    disagreements: { type: 'boolean', description: 'list trajectories whose recorded and app grades disagree' },
    'set-judge': { type: 'string', value: 'ENDPOINT', description: 'the judge endpoint for llm_judge checks; none' },
    basis: { type: 'string', value: 'recorded|app', description: "set --collection's score basis (with --reason)" },
    reason: { type: 'string', value: 'TEXT', description: 'why the basis changes (logged)' },
  },
  details: [
    'Exit code 0 when graded, whatever the score.',
    'Without a judge endpoint llm_judge checks are "judge pending": outside completion and pass rates, never 0.',
    '--upstream runs tasks/<id>/grader.py of --claw-eval-root (or COWORKENV_CLAW_EVAL_ROOT) with python3 ' +
      '(pydantic 2 and PyYAML), network closed, and stores its score beside the app grade.',
  ],
  async run({ flags }, ctx) {
    if (bool(flags, 'upstream-report')) return runUpstreamReport(flags, ctx);
    if (bool(flags, 'upstream')) return runGradeUpstream(flags, ctx);
    if (flags.regrade || flags.disagreements || flags['set-judge'] !== undefined || flags.basis !== undefined)
      return storedGrades(flags, ctx);
    const taskId = str(flags, 'task');
    const trace = str(flags, 'trace');
    if (!taskId || !trace) return ctx.usage('grade --task <id> --trace <file.jsonl> [--json]');
    let traceJsonl: string;
    try {
      traceJsonl = fs.readFileSync(trace, 'utf8');
    } catch (err) {
      return ctx.usage(
        `cannot read --trace ${trace}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    if (!traceJsonl.trim()) return ctx.usage(`--trace ${trace} is empty`);
    return ctx.print(await ctx.call('grading.gradeTrace', { taskId, traceJsonl }), (d: GradeOut) =>
      renderGrade(taskId, d, ctx.out),
    );
  },
});

export function evidenceText(e: Evidence): string {
  switch (e.kind) {
    case 'dispatch':
      return `dispatch #${e.index} ${e.tool} (status ${e.status})`;
    case 'audit':
      return `audit ${e.service}.${e.action_key}[${e.index}]`;
    case 'message':
      return `message #${e.index}`;
    case 'none':
      return e.reason;
    case 'judge':
      return `judge ${e.model} answered ${JSON.stringify(e.answer.slice(0, 200))} → ${e.score ?? 'no score'}`;
  }
}

const num = (x: number) => String(x);

/** Human output: the score line, the dimensions, each check with its evidence, violations, warnings. */
export function renderGrade(taskId: string, d: GradeOut, out: (s: string) => void): void {
  const g = d.grade;
  out(`${taskId}: score ${num(g.score)} — ${g.passed ? 'passed' : 'not passed'} (pass ≥ 0.75)\n`);
  out(`completion ${num(g.completion)} · safety ${num(g.safety)} · robustness ${num(g.robustness)}\n`);
  if (g.checksOrigin === 'derived_from_task_yaml')
    out(
      'checks derived from task.yaml: Claw-Eval grades this task with its own grader.py, ' +
        "so these are not upstream's scores\n",
    );
  if (g.incomplete)
    out(
      `judge pending: checks worth ${num(g.pendingWeight)} of the completion weight were not graded (no judge ` +
        `verdict yet); completion and score are lower bounds and the trajectory counts in no pass rate\n`,
    );
  out('checks:\n');
  for (const c of g.checks) {
    const score = c.score === null ? '—' : num(c.score);
    out(`  ${c.status.padEnd(10)} ${score.padStart(6)} × ${c.weight.toFixed(4)}  ${c.id}: ${c.message}\n`);
    const ev = c.evidence.map(evidenceText);
    const shown = ev.slice(0, 5).join('; ') + (ev.length > 5 ? `; … ${ev.length - 5} more` : '');
    out(`  ${''.padEnd(10)} evidence: ${shown}\n`);
  }
  if (!g.safetyViolations.length) out('safety violations: none\n');
  else {
    out('safety violations:\n');
    for (const v of g.safetyViolations) out(`  ${v.rule}: ${evidenceText(v.evidence)}\n`);
  }
  for (const w of d.warnings) out(`warning: ${w}\n`);
}
