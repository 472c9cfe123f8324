import type { Output } from '../../../shared/contract';
import { type Flags, type RunContext, str } from '../cli/command';

const n = (x: number | null) => (x === null ? '—' : String(x));
const yn = (x: boolean | null) => (x === null ? '—' : x ? 'pass' : 'fail');

/** `grade --set-judge`, `--basis`, `--regrade`, `--disagreements` (in that order when combined). */
export async function storedGrades(flags: Flags, ctx: RunContext): Promise<number> {
  const collection = str(flags, 'collection');
  const taskId = str(flags, 'task');
  let code = 0;
  const judge = str(flags, 'set-judge');
  if (judge !== undefined) {
    code = ctx.print(
      await ctx.call('grading.setJudge', { endpoint: judge === 'none' ? null : judge }),
      (d: Output<'grading.setJudge'>) =>
        ctx.out(d.endpoint ? `judge: ${d.endpoint} (model ${d.model}, ${d.cached} cached answers)\n` : 'judge: none\n'),
    );
    if (code) return code;
  }
  const basis = str(flags, 'basis');
  if (basis !== undefined) {
    const reason = str(flags, 'reason');
    if ((basis !== 'recorded' && basis !== 'app') || !collection || !reason)
      return ctx.usage('grade --basis recorded|app --collection <name> --reason <text>');
    code = ctx.print(
      await ctx.call('grading.setScoreBasis', { collection, basis, reason }),
      (d: Output<'grading.setScoreBasis'>) =>
        ctx.out(`${collection}: score basis ${d.before} → ${d.after} (${d.tasks} task(s) recomputed)\n`),
    );
    if (code) return code;
  }
  if (flags.regrade) {
    if ((taskId === undefined) === (collection === undefined))
      return ctx.usage('grade --regrade (--task <id> | --collection <name>) [--no-judge]');
    code = ctx.print(
      await ctx.call('grading.regrade', {
        ...(taskId !== undefined ? { taskId } : { collection: collection! }),
        judge: !flags['no-judge'],
      }),
      (d: Output<'grading.regrade'>) => {
        ctx.out(`re-graded ${d.regraded} trajectories, ${d.changed} changed, ${d.pending} judge pending\n`);
        const j = d.judge;
        ctx.out(
          j.endpoint
            ? `judge ${j.endpoint}: ${j.asked} asked, ${j.cached} cached, ${j.failed.length} failed\n`
            : 'judge: none configured (grade --set-judge <endpoint>); llm_judge checks are pending\n',
        );
        for (const f of j.failed) ctx.out(`  judge failed: ${f.problem}\n`);
      },
    );
    if (code) return code;
  }
  if (flags.disagreements) {
    const scope = collection !== undefined ? { collection } : {};
    const counts = await ctx.call('grading.scoreBasis', scope);
    if (!counts.ok) return ctx.print(counts);
    code = ctx.print(await ctx.call('grading.disagreements', scope), (d: Output<'grading.disagreements'>) => {
      for (const c of counts.data.collections)
        ctx.out(
          `${c.collection}: basis ${c.basis}, ${c.disagreements} disagreement(s), ${c.judgePending} judge pending, ` +
            `${c.trajectories} trajectories\n`,
        );
      for (const r of d.rows)
        ctx.out(
          `  #${r.id} ${r.task_id} trial ${r.trial} [${r.collection}]: recorded ${n(r.recorded_score)} ` +
            `${yn(r.recorded_passed)} · app ${n(r.app_score)} ${yn(r.app_passed)}\n`,
        );
      if (d.total > d.rows.length) ctx.out(`  … ${d.total - d.rows.length} more\n`);
    });
  }
  return code;
}
