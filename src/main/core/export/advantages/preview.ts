import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { ExportTask } from '../export-task';
import type { RolloutGroupKey } from './rollout-groups';
import { computeAdvantages, type Computed, type GroupSummary } from './compute';
import { spread } from './group-stats';
import { type CheckRate, type Flag, rolloutFlags } from './preview-flags';

export type { CheckRate, Flag } from './preview-flags';
import { describeSettings, type AdvantageSettings } from './settings';
import { trivialRuns, type TrivialReport } from './trivial-runs';

export type Preview = {
  settings: Record<string, unknown>;
  counts: {
    tasks: number;
    rollouts: number;
    valid_rollouts: number;
    invalid_rollouts: Record<string, number>;
    groups: number;
    valid_groups: number;
    no_signal_groups: number;
  };
  /** Over the valid rollouts (GiGPO: the per-turn advantages). */
  advantages: ReturnType<typeof spread>;
  groups: GroupSummary[];
  tasks: { task_id: string; trivial: TrivialReport; checks: CheckRate[] }[];
  /** GiGPO: how often steps share an anchor state. */
  anchors?: { steps: number; states: number; shared_steps: number; diverged_rollouts: number };
  /** What to look at first, most important first. */
  flags: Flag[];
};

/**
 * The group-advantage preview a researcher reads before an RL export: which groups carry no signal,
 * which checks a trivial run already meets, how often each check is met across the rollouts, where
 * the recorded rewards and the package's grader disagree. Pure: no files, no database.
 */
export function previewAdvantages(o: {
  tasks: readonly ExportTask[];
  rollouts: readonly Trajectory[];
  settings: AdvantageSettings;
  clockOf: (task: ExportTask) => Date;
  /** Each rollout's run (or collection) and agent: its group with its task (default: its model). */
  groups?: readonly RolloutGroupKey[];
  /** Each rollout before redaction (null: redaction replaced nothing): graded in its place, never written. */
  unredacted?: readonly (Trajectory | null)[];
}): { preview: Preview; computed: Computed } {
  const tasks = new Map(o.tasks.map((t) => [t.spec.task_id, t]));
  const computed = computeAdvantages(tasks, o.rollouts, o.settings, o.clockOf, o.groups, o.unredacted);
  const flags: Flag[] = [];
  const reports = o.tasks.map((t) => {
    const trivial = trivialRuns(t, o.clockOf(t));
    flags.push(...trivialFlags(t, trivial));
    return { task_id: t.spec.task_id, trivial, checks: checkRates(t, computed) };
  });
  flags.push(...rolloutFlags(o.tasks, o.rollouts, computed, reports));
  const sizeFlag = groupSizeFlag(computed.groups, o.settings.groupSize);
  if (sizeFlag) flags.push(sizeFlag);
  const valid = computed.rollouts.filter((r) => r.valid);
  const invalid: Record<string, number> = {};
  for (const r of computed.rollouts) if (!r.valid) invalid[r.invalid_reason!] = (invalid[r.invalid_reason!] ?? 0) + 1;
  const values =
    o.settings.method === 'gigpo'
      ? valid.flatMap((r) => r.steps?.map((s) => s.advantage) ?? [])
      : valid.flatMap((r) => (r.advantage === null ? [] : [r.advantage]));
  const preview: Preview = {
    settings: describeSettings(o.settings),
    counts: {
      tasks: o.tasks.length,
      rollouts: o.rollouts.length,
      valid_rollouts: valid.length,
      invalid_rollouts: invalid,
      groups: computed.groups.length,
      valid_groups: computed.groups.filter((g) => g.valid).length,
      no_signal_groups: computed.groups.filter((g) => g.no_signal).length,
    },
    advantages: spread(values),
    groups: computed.groups,
    tasks: reports,
    flags: flags.sort((a, b) => (a.level === b.level ? 0 : a.level === 'warn' ? -1 : 1)),
  };
  if (o.settings.method === 'gigpo') {
    const steps = valid.flatMap((r) => r.steps ?? []);
    preview.anchors = {
      steps: steps.length,
      states: new Set(steps.map((s) => `${s.anchor}`)).size,
      shared_steps: steps.filter((s) => s.anchor_size > 1).length,
      diverged_rollouts: valid.filter((r) => r.replay?.diverged).length,
    };
  }
  return { preview, computed };
}

/** Per check: in how many valid rollouts of the task the package's grader finds it met. */
function checkRates(task: ExportTask, computed: Computed): CheckRate[] {
  const mine = computed.rollouts.flatMap((r, i) => (r.valid && r.task_id === task.spec.task_id ? [i] : []));
  return task.spec.checks.map((c) => {
    let met = 0;
    let graded = 0;
    for (const i of mine) {
      const res = computed.graded[i]?.checks.find((x) => x.id === c.id);
      if (!res || res.score === null) continue;
      graded++;
      if (res.score >= 1) met++;
    }
    return { check_id: c.id, kind: c.kind, weight: c.weight, met, graded };
  });
}

function trivialFlags(t: ExportTask, r: TrivialReport): Flag[] {
  const out: Flag[] = [];
  const id = t.spec.task_id;
  const weight = (cid: string) => t.spec.checks.find((c) => c.id === cid)?.weight ?? 0;
  const label = {
    empty: 'an empty run (no call, no answer)',
    prompt_echo: 'echoing the request as the answer',
    reads_only: 'the reference plan minus its writes',
  };
  for (const run of r.runs) {
    if (run.run !== 'reads_only')
      for (const cid of [...run.met, ...run.partial])
        out.push({
          level: 'warn',
          code: 'trivial_check',
          task_id: id,
          check_id: cid,
          message:
            `check "${cid}" (weight ${weight(cid)}) is ${run.met.includes(cid) ? '' : 'partly '}met by ` +
            `${label[run.run]}: it cannot tell work from no work`,
        });
    if (run.passed)
      out.push({
        level: 'warn',
        code: 'trivially_passable',
        task_id: id,
        message:
          `${label[run.run]} scores ${run.score} (≥ 0.75): the task passes without ` +
          `${run.run === 'reads_only' ? 'changing anything' : 'doing anything'}`,
      });
    else if (run.run === 'reads_only' && run.met.length)
      out.push({
        level: 'info',
        code: 'reads_only_checks',
        task_id: id,
        message:
          `${label.reads_only} meets ${run.met.join(', ')} (completion ${run.completion}): these checks ` +
          `reward reading, not acting`,
      });
  }
  if (r.skipped)
    out.push({
      level: 'info',
      code: 'reads_only_skipped',
      task_id: id,
      message: `reads-only run not made: ${r.skipped}`,
    });
  return out;
}

/**
 * Groups whose valid rollouts are not the G the trainer settings ask for (rollout.n, num_generations): with n − 1 σ
 * the advantages depend on the group size, so this preview's values are the trainer's only at G.
 */
function groupSizeFlag(groups: readonly GroupSummary[], size: number): Flag | null {
  const off = groups.filter((g) => g.valid && g.valid_rollouts !== size);
  if (!off.length) return null;
  const sizes = [...new Set(off.map((g) => g.valid_rollouts))].sort((a, b) => a - b);
  return {
    level: 'info',
    code: 'group_size',
    message:
      `${off.length} group(s) have ${sizes.join(', ')} valid rollout(s), not the ${size} of the trainer settings ` +
      `(rollout.n): the trainer samples its own groups of ${size}`,
  };
}
