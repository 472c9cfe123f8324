import type { TaskSpecInput } from '../../../../shared/contract/entities/task-spec';
import { SERVICE_REGISTRY } from '../../services/registry';
import {
  type CatalogTool,
  type TaskToolEntry,
  taskToolEntry,
  toolEndpointEntry,
  toolsOf,
} from '../../services/tool-catalog';
import type { Gen } from './gen-context';
import type { CheckInput, PointedCheck, RuleInput, Segment } from './segment';

/** What a family hands the builder: the segments in plan order and the request around them. */
export type Draft = {
  g: Gen;
  taskId: string;
  taskName: string;
  slot: { id?: number; category: string; difficulty: string; reference_date: string; scenario: string };
  family: string;
  /** Provenance: the seed of this candidate and its place in the run. */
  provenance: { seed: number; sub_seed: number; index: number; attempt: number };
  segments: Segment[];
  prompt: string;
  /** The reference answer's opening and closing sentences around the segments' reports. */
  answer: { before?: string[]; after?: string[] };
  /** Extra checks (beyond the segments' and the answer check). */
  checks?: PointedCheck[];
  prohibited?: RuleInput[];
  /** Phrases the answer must contain in addition to the segments' mustSay; `any`: at least one of these. */
  answerCheck?: { all?: string[]; any?: string[]; points?: number };
  userAgent?: { persona: string; hidden_facts: string[]; max_rounds: number; system_prompt_suffix: string };
};

/** Weights from points: 4 decimals, the last one takes the rounding remainder, so they sum to 1 (± 1e-12). */
function weigh(pointed: PointedCheck[]): CheckInput[] {
  const total = pointed.reduce((s, p) => s + p.points, 0);
  let used = 0;
  return pointed.map((p, i) => {
    const weight =
      i === pointed.length - 1 ? Math.round((1 - used) * 1e4) / 1e4 : Math.round((p.points / total) * 1e4) / 1e4;
    used += weight;
    return { ...p.check, weight } as CheckInput;
  });
}

const uniq = <T>(list: T[], key: (x: T) => string = (x) => JSON.stringify(x)): T[] => {
  const seen = new Set<string>();
  return list.filter((x) => !seen.has(key(x)) && (seen.add(key(x)), true));
};

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') for (const v of Object.values(Object.freeze(o))) deepFreeze(v);
  return o;
}

/**
 * A task's tool entries, made once per tool and language and shared by every task (frozen: a
 * spec's consumer that wants to edit one copies it first, as the JSON round-trip to storage does).
 */
const ENTRIES = new Map<string, TaskToolEntry>();
function toolEntry(t: CatalogTool, lang: 'en' | 'zh'): TaskToolEntry {
  const key = `${lang}:${t.name}`;
  let e = ENTRIES.get(key);
  if (!e) ENTRIES.set(key, (e = deepFreeze(taskToolEntry(t, lang))));
  return e;
}

/** The reference plan as numbered prose (Claw-Eval's `reference_solution` field). */
const solution = (steps: { tool: string; args: Record<string, unknown> }[]) =>
  steps.map((s, i) => `${i + 1}. ${s.tool}(${JSON.stringify(s.args)})`).join('\n');

/**
 * The TaskSpec input of a draft (unparsed: validation parses it once; generateOne parses it for
 * callers that want the TaskSpec). Key order is fixed by construction, so the same draft gives
 * byte-identical JSON.
 */
export function buildTask(d: Draft): TaskSpecInput {
  const { g } = d;
  const services = d.segments.map((s) => ({
    name: s.service,
    port: SERVICE_REGISTRY.get(s.service)!.port,
    records: s.records,
  }));
  // Every tool of every involved service is offered (the writes nobody asked for are part of the test).
  const tools = d.segments.flatMap((s) => toolsOf(s.service));
  const steps = d.segments.flatMap((s) => s.steps);
  const must = uniq([...d.segments.flatMap((s) => s.mustSay), ...(d.answerCheck?.all ?? [])]);
  const pointed: PointedCheck[] = [...d.segments.flatMap((s) => s.checks), ...(d.checks ?? [])];
  if (must.length || d.answerCheck?.any?.length)
    pointed.push({
      points: d.answerCheck?.points ?? 2,
      check: {
        id: 'answer_reports',
        kind: 'final_text',
        ...(must.length ? { contains_all: must } : {}),
        ...(d.answerCheck?.any?.length ? { contains_any: d.answerCheck.any } : {}),
        description: g.L('the answer reports what was found and done', '回答中说明了查到的信息和所做的操作'),
      },
    });
  const prohibited = uniq([...d.segments.flatMap((s) => s.prohibited), ...(d.prohibited ?? [])]);
  const distractors = d.segments.flatMap((s) =>
    s.distractors.map((x) => ({ service: x.service, id: x.id, rule: `prohibited.${prohibited.indexOf(x.rule)}` })),
  );
  const finalText = [
    ...(d.answer.before ?? []),
    ...d.segments.flatMap((s) => s.report),
    ...(d.answer.after ?? []),
  ].join(g.L(' ', ''));
  const raw: TaskSpecInput & { generation: unknown } = {
    task_id: d.taskId,
    task_name: d.taskName,
    version: '1.0',
    category: d.slot.category,
    difficulty: d.slot.difficulty,
    language: g.lang,
    tags: ['generated', 'procedural', d.slot.scenario, ...d.segments.map((s) => s.service)],
    scenario: d.slot.scenario,
    reference_date: d.slot.reference_date,
    ...(d.slot.id !== undefined ? { slot_id: d.slot.id } : {}),
    prompt: { text: d.prompt, language: g.lang, attachments: [] },
    services,
    tools: tools.map((t) => toolEntry(t, g.lang)),
    tool_endpoints: tools.map((t) => toolEndpointEntry(t)),
    environment: { max_turns: Math.max(20, steps.length * 2 + 6), timeout_seconds: 300 + steps.length * 30 },
    ...(d.userAgent ? { user_agent: { enabled: true, ...d.userAgent } } : {}),
    checks: weigh(pointed),
    prohibited,
    reference_plan: steps,
    reference_final_text: finalText,
    judge_rubric: '',
    reference_solution: solution(steps),
    checks_origin: 'authored',
    generation: { generator: 'procedural', family: d.family, ...d.provenance, distractors },
  };
  return raw;
}
