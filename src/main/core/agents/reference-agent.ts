import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { dumpsCompact } from '../py/pyjson';
import type { Agent, AgentReply } from './agent-types';
import { NO_PERTURBATIONS, perturbedPlan, type PerturbationRates } from './perturb';
import { profileOf } from './perturb-mix';

export const REFERENCE_AGENT_LABEL = 'reference agent';

/**
 * `perturbations`: the same rates for every task. Without them the default mix applies (perturb-mix.ts:
 * each task a steady, flaky or failing profile), unless `clean` asks for plain replays.
 */
export type ReferenceAgentOptions = { seed?: number; perturbations?: Partial<PerturbationRates>; clean?: boolean };

/** Why the reference agent cannot run `spec`, or undefined when it can. */
export function referencePlanProblem(spec: TaskSpec): string | undefined {
  if (!spec.reference_plan?.length)
    return (
      `task ${spec.task_id} has no reference plan: ` +
      'the reference agent replays the plans of generated and hand-written tasks'
    );
  return undefined;
}

/**
 * The reference agent: replays the task's reference plan, one tool call per turn, then answers the
 * task's reference_final_text — with seeded perturbations (perturb.ts; by default the mix of
 * perturb-mix.ts, none with `clean`), so runs show the variety curation and RL need. It is not a model
 * and is never labelled as one: its label is "reference agent", its model id is empty, and its
 * trajectories record the seed and every perturbation applied. Deterministic per (task, trial,
 * seed): the same calls, arguments and answer every time.
 */
export function referenceAgent(o: ReferenceAgentOptions = {}): Agent {
  const seed = o.seed ?? 0;
  const fixed: PerturbationRates | undefined =
    o.perturbations || o.clean ? { ...NO_PERTURBATIONS, ...o.perturbations } : undefined;
  return {
    kind: 'reference',
    label: REFERENCE_AGENT_LABEL,
    model: '',
    begin(spec, trial) {
      const problem = referencePlanProblem(spec);
      if (problem) throw new Error(problem);
      const profile = fixed ? undefined : profileOf(spec.task_id, seed);
      const rates = fixed ?? profile!.rates;
      const { calls, applied } = perturbedPlan(spec, trial, seed, rates);
      const final = spec.reference_final_text ?? (spec.language === 'zh' ? '已完成。' : 'Done.');
      let next = 0;
      return {
        info: () => ({
          kind: 'reference',
          label: REFERENCE_AGENT_LABEL,
          seed,
          perturbations: rates,
          ...(profile ? { perturbation_profile: profile.profile } : {}),
          perturbations_applied: applied,
        }),
        turn(): Promise<AgentReply> {
          const call = calls[next];
          const i = next++;
          return Promise.resolve({
            content: call ? null : final,
            reasoning: null,
            toolCalls: call
              ? [{ id: `call_ref_${i}`, name: call.tool, arguments: dumpsCompact(call.args), origin: 'serialized' }]
              : [],
            usage: null,
            latencyMs: 0,
          });
        },
      };
    },
  };
}
