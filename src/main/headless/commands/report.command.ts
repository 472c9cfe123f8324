import type { RunReport } from '../../../shared/contract/entities/run';
import { defineCommand, intFlag, str, type CommandArgs, type RunContext } from '../cli/command';

const f4 = (x: number | null) => (x === null ? '–' : x.toFixed(4));
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

function render(ctx: RunContext, r: RunReport): void {
  const k = r.k;
  const idWidth = Math.max(7, ...r.tasks.map((t) => t.task_id.length));
  const head = [`pass@${k}`, `pass^${k}`, 'mean', 'compl.', 'safety'].map((h) => lpad(h, 7)).join(' ');
  ctx.out(`${r.scope.label} — k = ${k}\n`);
  // Each source's rule is named: the same reward passes under one and fails under another.
  for (const x of r.rules) ctx.out(`  ${x.source}: success = ${x.description} (${x.trials} trials)\n`);
  ctx.out('\n');
  ctx.out(`${pad('task', idWidth)}  trials passed  ${head}\n`);
  for (const t of r.tasks) {
    const beyond = t.padded ? ` (+${t.padded} pad)` : t.beyond_trials ? ' (k > n)' : '';
    const trials = `${t.trials}${t.errored ? `+${t.errored}err` : ''}${beyond}`;
    const figures = [t.pass_at_k, t.pass_hat_k, t.mean_score, t.completion, t.safety].map((x) => lpad(f4(x), 7));
    ctx.out(`${pad(t.task_id, idWidth)}  ${pad(trials, 6)} ${lpad(String(t.passed), 6)}  ${figures.join(' ')}\n`);
  }
  const line = (name: string, s: RunReport['overall'] | RunReport['groups'][number]) => {
    const lb = s.leaderboard;
    const figures = s.refused
      ? `pass^${k} refused: k exceeds the trials of ${s.refused} task(s) under τ's rule`
      : `pass@${k} ${f4(s.pass_at_k)}  pass^${k} ${f4(s.pass_hat_k)}`;
    // The leaderboard (zero-padded, Claw-Eval's) covers only the tasks under Claw-Eval's rule.
    const board = lb.tasks
      ? `leaderboard (${lb.tasks} Claw-Eval-rule tasks): avg ${f4(lb.avg_score)}, AvgPass ${f4(lb.avg_pass)}, ` +
        `AnyPass ${f4(lb.any_pass)}, AllPass ${f4(lb.all_pass)}`
      : 'leaderboard: none (no task under Claw-Eval’s rule)';
    ctx.out(`${pad(name, 24)} ${lpad(String(s.tasks), 5)} tasks  ${figures}  mean ${f4(s.mean_score)}  ${board}\n`);
  };
  ctx.out('\n');
  for (const g of r.groups) line(`${g.by} ${g.value}`, g);
  line('overall', r.overall);
  if (r.basis.source_reward || r.basis.none || r.basis.judge_pending)
    ctx.out(
      `\n${r.basis.graded} scores from the shared grader, ${r.basis.source_reward} from the sources' own rewards, ` +
        `${r.basis.none} trials without a score (counted as missing)` +
        (r.basis.judge_pending
          ? `, ${r.basis.judge_pending} waiting for an LLM judge (left out; \`coworkenv grade --regrade\`)`
          : '') +
        '\n',
    );
  const bins = r.histograms.trajectory_scores;
  const most = Math.max(1, ...bins.map((b) => b.count));
  ctx.out('\nscores of the trajectories\n');
  for (const b of bins)
    ctx.out(
      `${b.from.toFixed(2)}–${b.to.toFixed(2)} ${lpad(String(b.count), 6)} ` +
        `${'█'.repeat(Math.round((40 * b.count) / most))}\n`,
    );
}

async function printReport({ flags }: CommandArgs, ctx: RunContext): Promise<number> {
  const runFlag = str(flags, 'run');
  const collection = str(flags, 'collection');
  if (runFlag !== undefined && collection !== undefined) return ctx.usage('give --run or --collection, not both');
  const k = intFlag(flags, 'k', { min: 1, max: 100, fallback: 0 });
  if (!k.ok) return ctx.usage(k.message);
  let runId: number | undefined;
  if (runFlag !== undefined) {
    runId = Number(runFlag);
    if (!Number.isInteger(runId)) return ctx.usage(`--run takes a run id (a number), not "${runFlag}"`);
  } else if (collection === undefined) {
    const latest = await ctx.call('runs.list', { kind: 'run', limit: 1 });
    if (!latest.ok) return ctx.print(latest);
    if (!latest.data.rows.length) return ctx.usage('no runs yet: give --collection NAME, or run `coworkenv run` first');
    runId = latest.data.rows[0]!.id;
  }
  const r = await ctx.call('runs.report', {
    ...(runId !== undefined ? { runId } : { collection: collection! }),
    ...(k.value ? { k: k.value } : {}),
  });
  return ctx.print(r, (data: RunReport) => render(ctx, data));
}

export const reportCommand = defineCommand({
  words: ['report'],
  summary: 'evaluation report of a run or a collection: Pass@k, Pass^k, mean score, completion, safety per task',
  options: {
    run: { type: 'string', value: 'ID', description: 'a run (default: the latest agent run)' },
    collection: { type: 'string', value: 'NAME', description: 'a collection (its trajectories from any source)' },
    k: { type: 'string', value: 'K', description: "k of Pass@k / Pass^k (default: the run's trials)" },
  },
  details: [
    'Pass@k is the unbiased estimator 1 − C(n−c, k)/C(n, k); Pass^k is C(c, k)/C(n, k), "all k trials pass".',
    'A trial passes under its source’s rule, named in the report: score ≥ 0.75 for the shared grader and',
    'Claw-Eval (missing trials padded with failures to k, as its leaderboard does); reward within 1e-6 of 1',
    'for τ-bench / τ²-bench (k above a task’s trials refused, as τ²-bench does). With --json the report is',
    'one JSON object (rules; per task and overall: pass_at_k, pass_hat_k, null when refused).',
  ],
  run: printReport,
});
