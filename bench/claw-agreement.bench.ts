/**
 * Agreement with Claw-Eval's own graders on good solutions (issue 19's done criterion). Not a timing benchmark: it
 * prints, per service-backed task (T001–T044, T105–T164), the app's and upstream's score and pass on a
 * good-solution trace, and on a violation trace where the task has a tool_not_called rule, then the totals and
 * every disagreement with its reason. See bench/claw-agreement/harness.ts for what runs.
 *
 *   CLAW_EVAL_ROOT   the Claw-Eval checkout (default /work/claw-eval-9365e1a when it exists)
 *   AGREE_TASKS      a comma list of task ids (default: every service-backed task)
 *   AGREE_ANSWER_ONLY=0  leave out the answer-only traces (the good answer without tool calls)
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type AgreementRow, rowLine, runAgreement } from './claw-agreement/harness';
import { emit, REPO_ROOT } from './lib/harness';

const BENCH = 'claw-agreement';
const DEFAULT_ROOT = '/work/claw-eval-9365e1a';

async function main() {
  const root = process.env.CLAW_EVAL_ROOT ?? (fs.existsSync(DEFAULT_ROOT) ? DEFAULT_ROOT : undefined);
  if (!root || !fs.existsSync(path.join(root, 'tasks'))) {
    console.log(`skipped: no Claw-Eval checkout (set CLAW_EVAL_ROOT to one holding src/ and tasks/)`);
    emit({
      bench: BENCH,
      name: 'good-solution agreement',
      median_ms: Number.NaN,
      ratio: null,
      baseline: "upstream grader.py's pass/fail",
      skipped: 'no Claw-Eval checkout',
    });
    return;
  }
  const taskIds = process.env.AGREE_TASKS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  console.log(`Claw-Eval checkout: ${root}`);
  const t0 = performance.now();
  const rows = await runAgreement({
    root,
    ...(taskIds?.length ? { taskIds } : {}),
    workerEntry: path.join(REPO_ROOT, 'test/helpers/ts-worker.cjs'),
    answerOnly: process.env.AGREE_ANSWER_ONLY !== '0',
    log: (l) => console.log(l),
  });
  const good = rows.filter((r) => r.variant === 'good');
  const bad = rows.filter((r) => r.variant === 'violation');
  const upstreamPass = good.filter((r) => r.upstream.ok && r.upstream.passed);
  const agreed = upstreamPass.filter((r) => r.agree === true);
  const zeroed = bad.filter((r) => r.agree === true);
  console.log(`\ngood solutions upstream passes: ${upstreamPass.length}/${good.length}`);
  console.log(`good-solution agreement (of those): ${agreed.length}/${upstreamPass.length}`);
  console.log(`agreement on every good-solution trace: ${good.filter((r) => r.agree).length}/${good.length}`);
  console.log(`violations zeroed on both sides: ${zeroed.length}/${bad.length}`);
  const same = rows.filter((r) => r.reimportSame === true).length;
  console.log(`export → re-import → same app grade: ${same}/${rows.length}`);
  const notGood = good.filter((r) => !(r.upstream.ok && r.upstream.passed));
  if (notGood.length) console.log('\nscripts upstream does not pass (not good solutions yet):');
  for (const r of notGood)
    console.log(`  ${r.taskId}: ${r.reason}${r.dropped.length ? ` | dropped ${r.dropped.join(', ')}` : ''}`);
  const disagree = rows.filter(
    (r) =>
      (r.variant === 'good' || r.variant === 'violation') &&
      r.agree !== true &&
      !(r.variant === 'good' && notGood.includes(r)),
  );
  if (disagree.length) console.log('\ndisagreements:');
  for (const r of disagree) console.log(`  ${r.taskId} ${r.variant}: ${r.reason}`);
  const lazy = rows.filter((r) => r.variant === 'answer-only');
  const passes = (side: AgreementRow['app'] | AgreementRow['upstream']) => !('error' in side) && side.passed === true;
  const gap = lazy.filter((r) => passes(r.app) && r.upstream.ok && !r.upstream.passed);
  if (lazy.length) {
    const up = lazy.filter((r) => passes(r.upstream)).length;
    const app = lazy.filter((r) => passes(r.app)).length;
    console.log(
      `\nanswer-only traces (the good answer, no tool call): upstream passes ${up}/${lazy.length}, the app ` +
        `${app}/${lazy.length}; upstream's grader.py fails ${gap.length} the app passes (tool-usage rules ` +
        'task.yaml cannot express):',
    );
    console.log(`  ${gap.map((r) => r.taskId).join(', ')}`);
  }
  const errs = rows.filter((r) => r.variant === 'with-errors');
  const robustSame = errs.filter(
    (r) => !('error' in r.app) && r.upstream.ok && r.app.robustness === r.upstream.robustness,
  );
  if (errs.length)
    console.log(
      `\nwith refused calls kept (errors, recoveries): pass/fail agrees ${errs.filter((r) => r.agree).length}/` +
        `${errs.length}, robustness equal ${robustSame.length}/${errs.length}`,
    );
  for (const r of errs.filter((x) => !robustSame.includes(x) || !x.agree)) console.log(`  ${rowLine(r)}`);
  const partial = good.filter((r) => r.appNotMet && !disagree.includes(r) && !notGood.includes(r));
  if (partial.length) console.log('\ngood solutions the app grades below 1.0 (agreeing on pass/fail):');
  for (const r of partial) console.log(`  ${r.taskId}: ${r.appNotMet}`);
  const perTask = (performance.now() - t0) / Math.max(1, good.length + bad.length);
  const share = upstreamPass.length ? agreed.length / upstreamPass.length : 0;
  // The figure is the agreement (as "vs baseline": the share of upstream's verdicts the app matches); the time is
  // per graded trace, both sides (import, judge pass, regrade, grader.py subprocess).
  emit({
    bench: BENCH,
    name: `good-solution agreement ${agreed.length}/${upstreamPass.length}`,
    median_ms: perTask,
    ratio: share,
    baseline: "upstream grader.py's pass/fail (stub judge 1.0 both sides)",
    goal: '≥ 95 %',
    met: share >= 0.95,
  });
  emit({
    bench: BENCH,
    name: `violations zeroed ${zeroed.length}/${bad.length}`,
    median_ms: perTask,
    ratio: bad.length ? zeroed.length / bad.length : null,
    baseline: 'both sides score 0',
    goal: 'all',
    met: zeroed.length === bad.length,
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
