import fs from 'node:fs';
import type { Output } from '../../../shared/contract';
import { intFlag, str, type Flags, type RunContext } from '../cli/command';

type UpstreamOut = Output<'grading.upstream'>;
type ReportOut = Output<'grading.upstreamReport'>;

const NO_UPSTREAM =
  "without upstream's grader, imported Claw-Eval scores are the app's reading of task.yaml (its declarative " +
  "scoring_components and safety_checks), not Claw-Eval's own grader.py";

/** `grade --upstream`: one trace graded by the task's own grader.py beside the app's grade, stored. */
export async function runGradeUpstream(flags: Flags, ctx: RunContext): Promise<number> {
  const taskId = str(flags, 'task');
  const trace = str(flags, 'trace');
  const root = str(flags, 'claw-eval-root') ?? process.env.COWORKENV_CLAW_EVAL_ROOT;
  const usage =
    'grade --upstream --task <id> --trace <file.jsonl> --claw-eval-root <dir> [--stub-judge X] [--timeout S]';
  if (!taskId || !trace) return ctx.usage(usage);
  if (!root) return ctx.usage(`--claw-eval-root (or COWORKENV_CLAW_EVAL_ROOT) names your Claw-Eval checkout; ${usage}`);
  const timeout = intFlag(flags, 'timeout', { min: 1, max: 600, fallback: 60 });
  if (!timeout.ok) return ctx.usage(timeout.message);
  const stubRaw = str(flags, 'stub-judge');
  const stub = stubRaw === undefined ? undefined : Number(stubRaw);
  if (stub !== undefined && !(stub >= 0 && stub <= 1)) return ctx.usage(`--stub-judge must be 0–1, not "${stubRaw}"`);
  let traceJsonl: string;
  try {
    traceJsonl = fs.readFileSync(trace, 'utf8');
  } catch (err) {
    return ctx.usage(`cannot read --trace ${trace}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const input = {
    taskId,
    traceJsonl,
    clawEvalRoot: root,
    timeoutMs: timeout.value * 1000,
    ...(stub !== undefined ? { stubJudge: stub } : {}),
  };
  return ctx.print(await ctx.call('grading.upstream', input), (d: UpstreamOut) => {
    const how = `${d.app.passed ? 'passed' : 'not passed'}${d.app.incomplete ? ', incomplete' : ''}`;
    const app = `app ${d.app.score} (${how})`;
    if (!d.upstream.ok) {
      ctx.out(`${taskId}: upstream grader.py failed at ${d.upstream.stage}: ${d.upstream.error}\n`);
      if (d.upstream.file) ctx.out(`  file: ${d.upstream.file}\n`);
      if (d.upstream.stage === 'start python') ctx.out(`  ${NO_UPSTREAM}\n`);
      ctx.out(`${app}\n`);
      return;
    }
    const u = d.upstream;
    ctx.out(`${taskId}: upstream ${u.score} (${u.passed ? 'passed' : 'not passed'}) · ${app} · judge ${d.judge}\n`);
    ctx.out(`upstream completion ${u.completion} · safety ${u.safety} · robustness ${u.robustness}\n`);
    ctx.out(`pass/fail ${d.agree ? 'agrees' : 'DISAGREES'}\n`);
  });
}

/** `grade --upstream-report`: per task, how the stored upstream grades compare with the app's. */
export async function runUpstreamReport(flags: Flags, ctx: RunContext): Promise<number> {
  const taskId = str(flags, 'task');
  return ctx.print(await ctx.call('grading.upstreamReport', taskId ? { taskId } : {}), (d: ReportOut) => {
    if (!d.tasks.length) return void ctx.out(`no trace was graded upstream; ${NO_UPSTREAM}\n`);
    let traces = 0;
    let agreed = 0;
    let graded = 0;
    ctx.out('task                                       traces  failed  agree  upstream-pass  app-pass\n');
    for (const t of d.tasks) {
      traces += t.traces;
      graded += t.traces - t.failed;
      agreed += t.agreed;
      ctx.out(
        `${t.taskId.padEnd(42)} ${String(t.traces).padStart(6)}  ${String(t.failed).padStart(6)}  ` +
          `${String(t.agreed).padStart(5)}  ${String(t.upstreamPassed).padStart(13)}  ` +
          `${String(t.appPassed).padStart(8)}\n`,
      );
      if (t.lastError) ctx.out(`  last error: ${t.lastError}\n`);
    }
    const pct = graded ? ((100 * agreed) / graded).toFixed(1) : '—';
    ctx.out(`${traces} trace(s), ${graded} graded upstream, pass/fail agreement ${pct}%\n`);
  });
}
