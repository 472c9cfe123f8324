import type { GradeResult } from '../../../../shared/contract/entities/checks';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import { freshEnvironment, type ExportTask } from '../export-task';
import type { RedactionGradeChange } from '../redaction-grade';
import { AppError } from '../../lib/errors';
import { anchorKeys, type StepAnchors } from './anchor-states';
import { episodeStatsOf, normaliserOf, unsupportedReason } from './conventions';
import { gdpoBatch } from './gdpo';
import { gigpoGroup } from './gigpo';
import { drGrpoGroup, grpoGroup } from './grpo';
import { rolloutGroups, type RolloutGroupKey, type RolloutView } from './rollout-groups';
import type { AdvantageSettings } from './settings';

/** One rollout's advantage record (what rollouts.jsonl carries besides the messages). */
export type RolloutAdvantage = {
  trajectory_id: string;
  task_id: string;
  /** The group it was normalised in, with task_id (rollout-groups.ts). */
  group: RolloutGroupKey;
  trial: number;
  valid: boolean;
  invalid_reason: string | null;
  reward: number | null;
  scores: { completion: number; safety: number; robustness: number } | null;
  /** The shared grader on the package's checks. */
  grader: { score: number; completion: number; safety: number; robustness: number; incomplete: boolean } | null;
  /**
   * Present only when redaction changed the rollout's own checks' outcome: `reward` and `grader` are the grade
   * before redaction, while `messages` (redacted) re-grade as `after`. Never dropped: a group needs its failures.
   */
  redaction_changed_grade?: RedactionGradeChange;
  /** GRPO / Dr.GRPO / GDPO: every assistant token's advantage; GiGPO: the episode-level A^E. */
  advantage: number | null;
  /** GDPO: Σ_k w_k·Â_{i,k} before the batch step. */
  combined?: number | null;
  /** GiGPO: per assistant turn. */
  steps?:
    | {
        message_index: number;
        anchor: string;
        return: number;
        anchor_size: number;
        step_advantage: number;
        advantage: number;
      }[]
    | null;
  /** GiGPO: how the replay that defines the anchor states went. */
  replay?: { diverged: StepAnchors['diverged']; unmatched: number } | null;
};

export type GroupSummary = {
  task_id: string;
  /** The rest of the group's key: its run (or collection) and agent. */
  run_id: number | null;
  collection: string | null;
  agent: string;
  rollouts: number;
  valid_rollouts: number;
  valid: boolean;
  mean: number | null;
  std: number | null;
  no_signal: boolean;
  /** GDPO: dimensions with zero variance in this group. */
  flat_dims?: string[];
};

export type Computed = {
  rollouts: RolloutAdvantage[];
  /** The shared grader's full result per rollout (input order); null when its task is not exported. */
  graded: (GradeResult | null)[];
  groups: GroupSummary[];
  batch?: { mean: number | null; std: number | null };
};

type SourceScores = RolloutView['trajectory']['scores'];
/** The source's dimensions when it gives all three (a messages JSONL row may give completion alone). */
const hasAllDims = (s: SourceScores): s is NonNullable<SourceScores> & { safety: number; robustness: number } =>
  s !== null && s.safety !== undefined && s.robustness !== undefined;

const record = (v: RolloutView): RolloutAdvantage => ({
  trajectory_id: v.trajectory.trajectory_id,
  task_id: v.taskId,
  group: v.group,
  trial: v.trial,
  valid: v.valid,
  invalid_reason: v.invalidReason,
  // A non-finite reward has no JSON form; the rollout is invalid (bad_reward) anyway.
  reward: v.trajectory.reward !== null && Number.isFinite(v.trajectory.reward) ? v.trajectory.reward : null,
  scores: hasAllDims(v.trajectory.scores)
    ? {
        completion: v.trajectory.scores.completion,
        safety: v.trajectory.scores.safety,
        robustness: v.trajectory.scores.robustness,
      }
    : null,
  grader: v.graded
    ? {
        score: v.graded.score,
        completion: v.graded.completion,
        safety: v.graded.safety,
        robustness: v.graded.robustness,
        incomplete: v.graded.incomplete,
      }
    : null,
  ...(v.redactionChange ? { redaction_changed_grade: v.redactionChange } : {}),
  advantage: null,
});

/**
 * Group advantages of collected rollouts (a task's trials by one run or collection and one agent form a group;
 * `keys[i]` is rollout i's, rollout-groups.ts), per rollout in input order. GiGPO replays each valid rollout in a
 * fresh environment of its task (clock from `clockOf`) to key its steps by environment state. `unredacted[i]` is
 * rollout i before redaction (null: unchanged by it), graded instead of the redacted copy (rollout-groups.ts).
 */
export function computeAdvantages(
  tasks: ReadonlyMap<string, ExportTask>,
  rollouts: readonly Trajectory[],
  s: AdvantageSettings,
  clockOf: (task: ExportTask) => Date,
  keys?: readonly RolloutGroupKey[],
  unredacted?: readonly (Trajectory | null)[],
): Computed {
  const unsupported = unsupportedReason(s.convention, s.method);
  if (unsupported) throw new AppError('INVALID_INPUT', unsupported, [{ path: ['convention'], message: unsupported }]);
  const norm = normaliserOf(s.convention, s.stdFloor);
  const groups = rolloutGroups(tasks, rollouts, s, keys, unredacted);
  const byId = new Map<RolloutView, RolloutAdvantage>();
  for (const g of groups.values()) for (const v of g) byId.set(v, record(v));
  const summaries: GroupSummary[] = [];
  const summary = (
    taskId: string,
    g: RolloutView[],
    r: { valid: boolean; mean: number | null; std: number | null; noSignal: boolean },
  ) => {
    summaries.push({
      task_id: taskId,
      ...g[0]!.group,
      rollouts: g.length,
      valid_rollouts: g.filter((v) => v.valid).length,
      valid: r.valid,
      mean: r.mean,
      std: r.std,
      no_signal: r.noSignal,
    });
    return summaries[summaries.length - 1]!;
  };
  let batch: Computed['batch'];
  if (s.method === 'gdpo') {
    const list = [...groups];
    const res = gdpoBatch(
      list.map(([, g]) => g.map((v) => v.dims)),
      s.weights,
      norm,
    );
    batch = { mean: res.batchMean, std: res.batchStd };
    list.forEach(([, g], k) => {
      const taskId = g[0]!.taskId;
      const r = res.groups[k]!;
      const scalar = grpoGroup(
        g.map((v) => v.reward),
        norm,
      );
      const sum = summary(taskId, g, { valid: r.valid, mean: scalar.mean, std: scalar.std, noSignal: r.noSignal });
      sum.flat_dims = Object.entries(r.flatDims).flatMap(([d, flat]) => (flat ? [d] : []));
      g.forEach((v, i) => Object.assign(byId.get(v)!, { advantage: r.advantages[i], combined: r.combined[i] }));
    });
  } else {
    for (const g of groups.values()) {
      const taskId = g[0]!.taskId;
      const rewards = g.map((v) => v.reward);
      if (s.method === 'gigpo') {
        const task = tasks.get(taskId);
        const anchors = g.map((v) =>
          v.valid && task ? anchorKeys(v.trajectory, freshEnvironment(task, clockOf(task)), s.anchorKey) : null,
        );
        const r = gigpoGroup(
          g.map((v, i) => ({ reward: v.reward, stepKeys: anchors[i]?.keys ?? [] })),
          {
            gamma: s.gamma,
            omega: s.omega,
            mode: s.mode,
            normaliser: norm,
            episodeStats: episodeStatsOf(s.convention),
          },
        );
        summary(taskId, g, r);
        g.forEach((v, i) => {
          const a = anchors[i];
          Object.assign(byId.get(v)!, {
            advantage: r.advantages[i],
            steps:
              r.steps[i]?.map((st, t) => ({
                message_index: a!.messageIndexes[t]!,
                anchor: st.key,
                return: st.ret,
                anchor_size: st.anchorSize,
                step_advantage: st.stepAdvantage,
                advantage: st.advantage,
              })) ?? null,
            replay: a ? { diverged: a.diverged, unmatched: a.unmatched } : null,
          });
        });
      } else {
        const r = s.method === 'grpo' ? grpoGroup(rewards, norm) : drGrpoGroup(rewards, norm);
        summary(taskId, g, r);
        g.forEach((v, i) => {
          byId.get(v)!.advantage = r.advantages[i]!;
        });
      }
    }
  }
  // Back to input order (a group gathers its members from wherever they were in the input).
  const views = [...groups.values()].flat().sort((a, b) => a.index - b.index);
  return {
    rollouts: views.map((v) => byId.get(v)!),
    graded: views.map((v) => v.graded),
    groups: summaries,
    ...(batch ? { batch } : {}),
  };
}
