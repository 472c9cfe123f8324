import { catalogTool, taskToolEntry, toolEndpointEntry } from '../../services/tool-catalog';

/** A coverage-plan slot as the LLM generator needs it (the plan's Slot fits; id is optional for ad-hoc use). */
export type LlmSlot = {
  id?: number;
  family?: string;
  services: readonly string[];
  category: string;
  difficulty: string;
  language: 'en' | 'zh';
  reference_date: string;
  scenario: string;
  notes?: string;
};

/** Stable task id of candidate `index` of a slot and run seed (procedural ones are gen_…). */
export const llmTaskId = (slot: LlmSlot, seed: number, index: number): string =>
  `llm_s${slot.id ?? 0}_${seed}_${String(index).padStart(5, '0')}`;

export type Provenance = { generator: 'llm'; endpoint: string; model: string; seed: number; index: number };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A parsed answer made into a candidate TaskSpec before validation (never mutating the answer):
 * - the slot's identity wins over what the model wrote (task id, slot, date, language, category,
 *   difficulty, scenario) — a model that changes them has not changed the plan;
 * - catalog tools, named or written out, get the catalog's own schema (in the task's language)
 *   and route, so a miscopied schema cannot make a task unrunnable; tools the catalog does not know
 *   are kept as written and the validators name them;
 * - provenance records which endpoint, model, seed and index produced it.
 */
export function normaliseCandidate(
  answer: Record<string, unknown>,
  slot: LlmSlot,
  taskId: string,
  provenance: Provenance,
): Record<string, unknown> {
  const spec: Record<string, unknown> = structuredClone(answer);
  const lang = slot.language;
  spec.task_id = taskId;
  if (slot.id !== undefined) spec.slot_id = slot.id;
  else delete spec.slot_id;
  Object.assign(spec, {
    reference_date: slot.reference_date,
    language: lang,
    category: slot.category,
    difficulty: slot.difficulty,
    scenario: slot.scenario,
  });
  if (typeof spec.prompt === 'string') spec.prompt = { text: spec.prompt };
  if (isObject(spec.prompt)) spec.prompt = { ...spec.prompt, language: lang };

  const given = Array.isArray(spec.tools) ? spec.tools : [];
  const ports = new Map<string, number>();
  for (const s of Array.isArray(spec.services) ? spec.services : [])
    if (isObject(s) && typeof s.name === 'string' && typeof s.port === 'number') ports.set(s.name, s.port);
  const tools: unknown[] = [];
  const endpoints: unknown[] = [];
  const seen = new Set<string>();
  for (const t of given) {
    const name = typeof t === 'string' ? t : isObject(t) && typeof t.name === 'string' ? t.name : undefined;
    if (name !== undefined && seen.has(name)) continue;
    if (name !== undefined) seen.add(name);
    const known = name !== undefined ? catalogTool(name) : undefined;
    if (known) {
      tools.push(taskToolEntry(known, lang));
      endpoints.push(toolEndpointEntry(known, ports.get(known.service)));
    } else tools.push(typeof t === 'string' ? { name: t } : t);
  }
  spec.tools = tools;
  // Routes of tools the catalog does not know stay as the model wrote them (validators judge them).
  const written = Array.isArray(spec.tool_endpoints) ? spec.tool_endpoints : [];
  spec.tool_endpoints = [
    ...endpoints,
    ...written.filter((e) => isObject(e) && typeof e.tool_name === 'string' && !catalogTool(e.tool_name)),
  ];
  spec.provenance = provenance;
  return spec;
}
