import { seededRandom } from '../services/lib';
import { fnv, NO_PERTURBATIONS, type PerturbationRates } from './perturb';

/**
 * What the default reference run does (issue 18 item 11): plain replays solve every task every
 * time, so a newcomer's first run curated into one bucket (TRIVIAL) and gave RL groups no reward
 * spread — nothing to learn from. Real agents find some tasks easy, some hit-and-miss, some out of
 * reach, so each task draws one profile from (task id, seed) — the same in every trial, as a task's
 * difficulty is — and its trials are perturbed at that profile's rates (perturb.ts):
 *
 * - steady (30 %): no perturbation; the trials agree (TRIVIAL);
 * - flaky (45 %): a step skipped or an argument wrong now and then, a prohibited call in one
 *   trajectory in four; trials disagree (KEEP, reward spread);
 * - failing (25 %): most steps skipped or wrong; low completion (UNSOLVABLE, unless the task's
 *   checks are mostly about what was left alone).
 *
 * `runs.start` with `clean: true` (CLI `--clean`) replays plainly; explicit rates apply to every task.
 */
export type Profile = 'steady' | 'flaky' | 'failing';
export const DEFAULT_MIX: readonly { profile: Profile; share: number; rates: PerturbationRates }[] = [
  { profile: 'steady', share: 0.3, rates: NO_PERTURBATIONS },
  { profile: 'flaky', share: 0.45, rates: { skip_step: 0.12, wrong_argument: 0.12, prohibited_call: 0.25 } },
  { profile: 'failing', share: 0.25, rates: { skip_step: 0.6, wrong_argument: 0.6, prohibited_call: 0.25 } },
];

/** The profile of one task under one seed: its own random stream, apart from the per-trial ones. */
export function profileOf(taskId: string, seed: number): (typeof DEFAULT_MIX)[number] {
  const draw = seededRandom(fnv(`${taskId}\u0000${seed}\u0000profile`))();
  let at = 0;
  for (const p of DEFAULT_MIX) if (draw < (at += p.share)) return p;
  return DEFAULT_MIX[DEFAULT_MIX.length - 1]!;
}
