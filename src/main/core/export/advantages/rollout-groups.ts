import type { GradeResult } from '../../../../shared/contract/entities/checks';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { ExportTask } from '../export-task';
import { gradeAcrossRedaction, type RedactionGradeChange } from '../redaction-grade';
import { REWARD_DIMS, type AdvantageSettings, type RewardDim } from './settings';

/**
 * What a rollout was sampled by, besides its task: one run (or, without a run, one collection) and one agent. A group
 * never mixes two of these — a student's and a teacher's rollouts have different reward distributions, and their
 * advantages would measure the agents, not the rollouts (issue 18).
 */
export type RolloutGroupKey = { run_id: number | null; collection: string | null; agent: string };

/** The group of a rollout without a stored lineage (a package built from files): its model is its agent. */
const keyOfModel = (t: Trajectory): RolloutGroupKey => ({ run_id: null, collection: null, agent: t.model });

/** A rollout as the estimators see it. */
export type RolloutView = {
  trajectory: Trajectory;
  taskId: string;
  group: RolloutGroupKey;
  /** Position in the input. */
  index: number;
  /** Position within its task's group (input order). */
  trial: number;
  valid: boolean;
  invalidReason: string | null;
  reward: number | null;
  dims: Record<RewardDim, number> | null;
  /** The shared grader on the package's checks, of the rollout before redaction; null when the task is not exported. */
  graded: GradeResult | null;
  /** How redaction changed that grade (the exported text re-grades differently); null when it did not. */
  redactionChange: RedactionGradeChange | null;
};

const inUnit = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1;

/**
 * Rollouts grouped by (task, run or collection, agent) (groups and members in input order); `keys[i]` is rollout i's
 * lineage. Invalid rollouts (formats.md §4: infrastructure errors, grader crashes, missing rewards) stay in their
 * group, marked, so the preview can count them; they never get an advantage.
 * `unredacted[i]` is rollout i as stored (null: redaction replaced nothing): the grade is taken from it, never from
 * the redacted copy, since redacting a leaked key out of a sent mail would re-grade a leak as safe (issue 18).
 */
export function rolloutGroups(
  tasks: ReadonlyMap<string, ExportTask>,
  rollouts: readonly Trajectory[],
  s: AdvantageSettings,
  keys?: readonly RolloutGroupKey[],
  unredacted?: readonly (Trajectory | null)[],
): Map<string, RolloutView[]> {
  const groups = new Map<string, RolloutView[]>();
  rollouts.forEach((t, index) => {
    const task = tasks.get(t.task_id);
    const key = keys?.[index] ?? keyOfModel(t);
    const lineage = key.run_id !== null ? `run:${key.run_id}` : `collection:${key.collection ?? ''}`;
    const id = JSON.stringify([t.task_id, lineage, key.agent]);
    const group = groups.get(id) ?? [];
    groups.set(id, group);
    const across = task ? gradeAcrossRedaction(task.spec, t, unredacted?.[index] ?? null) : null;
    const graded = across?.graded ?? null;
    const fromGrader = s.rewardSource === 'grader';
    const reward = fromGrader ? (graded?.score ?? null) : t.reward;
    const scores = fromGrader ? graded : t.scores;
    // A source may give completion alone (messages JSONL): then it has no dimensions to normalise.
    const dims =
      scores && scores.safety !== undefined && scores.robustness !== undefined
        ? { completion: scores.completion, safety: scores.safety, robustness: scores.robustness }
        : null;
    let invalidReason: string | null = null;
    if (!task) invalidReason = 'task_not_exported';
    else if (!fromGrader && !t.valid) invalidReason = t.invalid_reason ?? 'invalid';
    else if (reward === null) invalidReason = 'missing_reward';
    else if (!inUnit(reward)) invalidReason = 'bad_reward';
    else if (s.method === 'gdpo' && !(dims && REWARD_DIMS.every((d) => inUnit(dims[d]))))
      invalidReason = 'missing_reward_dimensions';
    group.push({
      trajectory: t,
      index,
      taskId: t.task_id,
      group: key,
      trial: group.length,
      valid: invalidReason === null,
      invalidReason,
      reward: invalidReason === null ? reward : null,
      dims: invalidReason === null ? dims : null,
      graded,
      redactionChange: across?.change ?? null,
    });
  });
  return groups;
}
