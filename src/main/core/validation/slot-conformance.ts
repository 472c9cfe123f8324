import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Verdict } from '../../../shared/contract/validation.contract';
import { catalogTool } from '../services/tool-catalog';
import { notApplicable, type Message, type SlotTarget, type ValidationInput } from './types';

const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : '(none)');
const shown = (v: unknown) => (v === undefined || v === '' ? '(none)' : `"${String(v)}"`);

/** The service a plan step's tool belongs to: the catalog's, else the route's first path segment (`/helpdesk/…`). */
function serviceOfTool(spec: TaskSpec, tool: string): string | undefined {
  const known = catalogTool(tool)?.service;
  if (known) return known;
  const url = spec.tool_endpoints.find((e) => e.tool_name === tool)?.url;
  return url?.match(/^https?:\/\/[^/]+\/([^/]+)\//)?.[1];
}

/**
 * What each scenario of the procedural library (DESIGN.md §7, procedural/families) promises beyond
 * the slot's fields. single_service and cross_service are their service counts, which the exact
 * service set already enforces; temporal is "records told apart by time relative to the reference
 * date", so its requirement is the slot's reference date itself (checked with the other fields,
 * the message saying why it matters more there).
 */
const REQUIRES: Partial<Record<string, (spec: TaskSpec) => Message[]>> = {
  // A safety task grades a refusal: without a prohibited rule safety is always 1 and nothing is tested.
  safety: (spec) =>
    spec.prohibited.length
      ? []
      : [
          {
            field: 'prohibited',
            message:
              'the slot is a safety scenario, the task has no prohibited rule (tool or audit): ' +
              'a risky action it should refuse cannot cost it anything',
          },
        ],
  // A clarification task is only multi-turn if someone answers the agent's question with the facts held back.
  multi_turn: (spec) => {
    const u = spec.user_agent;
    if (!u?.enabled)
      return [
        {
          field: 'user_agent.enabled',
          message:
            'the slot is a multi_turn scenario, the task has no simulated user (user_agent.enabled is ' +
            `${u ? 'false' : 'absent'}): the agent has nobody to ask for clarification`,
        },
      ];
    return u.hidden_facts.length
      ? []
      : [
          {
            field: 'user_agent.hidden_facts',
            message:
              'the slot is a multi_turn scenario, the simulated user holds no hidden facts: ' +
              'there is nothing to clarify',
          },
        ];
  },
};

/** The slot's identity fields a task must carry unchanged: the heat maps group valid tasks by the slot's values. */
const FIELDS = ['category', 'difficulty', 'language', 'reference_date', 'scenario'] as const;

function fieldProblems(spec: TaskSpec, slot: SlotTarget): Message[] {
  const out: Message[] = [];
  if (slot.id !== undefined && spec.slot_id !== slot.id)
    out.push({
      field: 'slot_id',
      message: `the slot is ${slot.id}, the task's slot_id is ${spec.slot_id ?? '(none)'}`,
    });
  for (const f of FIELDS) {
    if (spec[f] === slot[f]) continue;
    const why =
      f === 'reference_date' && slot.scenario === 'temporal'
        ? ' (a temporal task tells its records apart by time relative to this date)'
        : '';
    out.push({ field: f, message: `the slot's ${f} is ${shown(slot[f])}, the task's is ${shown(spec[f])}${why}` });
  }
  return out;
}

/**
 * Exactly the slot's services: the coverage plan counts a valid task under each of its slot's
 * services, so a task missing one inflates that service's cell, and a task adding one exercises a
 * service its cell does not credit (and changes the slot's single/cross-service shape and
 * difficulty). Each slot service must also be used — the reference plan calls one of its tools —
 * or the task only declares it.
 */
function serviceProblems(spec: TaskSpec, slot: SlotTarget): Message[] {
  const task = [...new Set(spec.services.map((s) => s.name))];
  const missing = slot.services.filter((s) => !task.includes(s));
  const extra = task.filter((s) => !slot.services.includes(s));
  if (missing.length || extra.length)
    return [
      {
        field: 'services',
        message:
          `the slot's services are ${list(slot.services)}, the task's are ${list(task)}` +
          `${missing.length ? `; missing ${list(missing)}` : ''}` +
          `${extra.length ? `; not in the slot ${list(extra)}` : ''}` +
          ' — a task counts under exactly its slot’s services',
      },
    ];
  const plan = spec.reference_plan;
  if (!plan) return []; // solvability already fails a generated task without a plan
  const used = new Set(plan.map((s) => serviceOfTool(spec, s.tool)));
  return slot.services
    .filter((s) => !used.has(s))
    .map((s) => ({
      field: `services.${task.indexOf(s)}`,
      message:
        `the slot's service ${s} is declared but the reference plan calls none of its tools: ` +
        'the task does not use it',
    }));
}

/**
 * Validator 8: a generated task honours the coverage slot it was made for (DESIGN.md §7) — the
 * slot's services exactly, its category, difficulty, language, reference date and scenario, and
 * what the scenario requires (REQUIRES). Not applicable without a slot: imported and hand-written
 * tasks are counted under no slot.
 */
export function slotConformance({ spec, slot, imported }: ValidationInput): Verdict {
  if (imported)
    return notApplicable('slot_conformance', 'slot_id', 'an imported Claw-Eval task fills no coverage slot');
  if (!slot)
    return notApplicable(
      'slot_conformance',
      'slot_id',
      spec.slot_id === undefined
        ? 'no slot: the task was not generated for the coverage plan'
        : `slot ${spec.slot_id} is not there to check against (deleted, or the spec was checked on its own)`,
    );
  const problems = [
    ...serviceProblems(spec, slot),
    ...fieldProblems(spec, slot),
    ...(REQUIRES[slot.scenario]?.(spec) ?? []),
  ];
  return {
    validator: 'slot_conformance',
    status: problems.length ? 'fail' : 'pass',
    messages: problems,
  };
}
