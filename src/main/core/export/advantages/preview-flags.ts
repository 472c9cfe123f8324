import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { ExportTask } from '../export-task';
import type { Computed } from './compute';

export type Flag = {
  level: 'warn' | 'info';
  code: string;
  task_id?: string;
  check_id?: string;
  trajectory_id?: string;
  message: string;
};

export type CheckRate = { check_id: string; kind: string; weight: number; met: number; graded: number };

const fmt = (x: number | null) => (x === null ? '—' : String(Math.round(x * 10000) / 10000));

/**
 * Flags about the rollouts: groups without signal or too small, invalid rollouts, constant checks, reward sources,
 * replays.
 */
export function rolloutFlags(
  tasks: readonly ExportTask[],
  rollouts: readonly Trajectory[],
  computed: Computed,
  reports: readonly { task_id: string; checks: CheckRate[] }[],
): Flag[] {
  const out: Flag[] = [];
  for (const g of computed.groups) {
    if (!g.valid)
      out.push({
        level: 'warn',
        code: 'invalid_group',
        task_id: g.task_id,
        message: `no valid rollout of ${g.rollouts}: excluded, no advantages`,
      });
    else if (g.valid_rollouts === 1)
      out.push({
        level: 'warn',
        code: 'singleton_group',
        task_id: g.task_id,
        message:
          `one valid rollout of ${g.rollouts}: nothing to compare it with; its advantage follows the convention's ` +
          `singleton rule (manifest: advantage.convention.singleton), advantage ${g.no_signal ? '0' : 'not 0'}`,
      });
    else if (g.no_signal)
      out.push({
        level: 'warn',
        code: 'no_signal',
        task_id: g.task_id,
        message:
          `all ${g.valid_rollouts} valid rollouts scored ${fmt(g.mean)}: zero variance, every advantage is ` +
          `0 (the group still counts toward the batch)`,
      });
    else if (g.flat_dims?.length)
      out.push({
        level: 'info',
        code: 'flat_dimensions',
        task_id: g.task_id,
        message:
          `no variance in ${g.flat_dims.join(', ')}: ` +
          `${g.flat_dims.length > 1 ? 'these dimensions contribute' : 'this dimension contributes'} nothing to ` +
          `GDPO's advantages here`,
      });
  }
  const reasons = new Map<string, number>();
  computed.rollouts.forEach(
    (r) => !r.valid && reasons.set(r.invalid_reason!, (reasons.get(r.invalid_reason!) ?? 0) + 1),
  );
  if (reasons.size)
    out.push({
      level: 'warn',
      code: 'invalid_rollouts',
      message:
        `${[...reasons.values()].reduce((a, b) => a + b, 0)} rollout(s) invalid, never given an advantage: ` +
        `${[...reasons].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    });
  for (const rep of reports)
    for (const c of rep.checks) {
      if (c.graded < 2) continue;
      if (c.met === c.graded)
        out.push({
          level: 'info',
          code: 'check_always_met',
          task_id: rep.task_id,
          check_id: c.check_id,
          message: `check "${c.check_id}" is met by all ${c.graded} valid rollouts: it separates none of them`,
        });
      else if (c.met === 0)
        out.push({
          level: 'info',
          code: 'check_never_met',
          task_id: rep.task_id,
          check_id: c.check_id,
          message: `check "${c.check_id}" is met by none of ${c.graded} valid rollouts: too hard, or unreachable?`,
        });
    }
  const recorded = new Map<string, { n: number; max: number }>();
  computed.rollouts.forEach((r, i) => {
    const t = rollouts[i]!;
    if (r.grader && t.reward !== null && Math.abs(r.grader.score - t.reward) > 1e-9) {
      const m = recorded.get(r.task_id) ?? { n: 0, max: 0 };
      recorded.set(r.task_id, { n: m.n + 1, max: Math.max(m.max, Math.abs(r.grader.score - t.reward)) });
    }
    // Never silent: the exported text of this rollout grades otherwise than the reward it carries.
    if (r.redaction_changed_grade)
      out.push({
        level: 'warn',
        code: 'redaction_changed_grade',
        task_id: r.task_id,
        trajectory_id: r.trajectory_id,
        message:
          `redacting this rollout changes its grade (${r.redaction_changed_grade.checks.join(', ') || 'scores'}: ` +
          `score ${r.redaction_changed_grade.before.score} → ${r.redaction_changed_grade.after.score}); its reward ` +
          `and grader are the grade before redaction`,
      });
    if (r.replay?.diverged)
      out.push({
        level: 'warn',
        code: 'replay_diverged',
        task_id: r.task_id,
        trajectory_id: r.trajectory_id,
        message:
          `replaying the rollout's calls gave ${r.replay.diverged.tool} status ` +
          `${r.replay.diverged.replayed} where it recorded ${r.replay.diverged.recorded} (turn ` +
          `${r.replay.diverged.step}): the rollout ran in another environment or clock, so its anchor states from ` +
          `there on are ours, not its`,
      });
  });
  for (const [taskId, m] of recorded) {
    const origin = tasks.find((t) => t.spec.task_id === taskId)?.spec.checks_origin;
    out.push({
      level: 'info',
      code: 'reward_mismatch',
      task_id: taskId,
      message:
        `${m.n} rollout(s) have a recorded reward that differs from the package grader's score (largest ` +
        `difference ${fmt(m.max)})` +
        `${
          origin === 'derived_from_task_yaml'
            ? "; this task's checks are derived from its task.yaml, not upstream's grader"
            : ''
        }`,
    });
  }
  return out;
}
