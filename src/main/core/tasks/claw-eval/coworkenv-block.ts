import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { Check, PlanStep, ProhibitedRule } from '../../../../shared/contract/entities/checks';
import { TaskSpec, UnevaluableSafetyRule } from '../../../../shared/contract/entities/task-spec';
import type { ClawTaskYaml } from './task-yaml';
import { SERVICE_REGISTRY } from '../../services/registry';
import { fixtureRecords, toPlain, type PyValue } from '../../py/pyjson';

export const BLOCK_FORMAT = 'coworkenv-taskspec/1';

/** Claw-Eval's declarative keys: derived from the checks on export unless the spec had its own. */
export const DECLARATIVE_KEYS = [
  'scoring_components',
  'safety_checks',
  'expected_actions',
  'primary_dimensions',
] as const;

/**
 * What a task.yaml written from a TaskSpec carries besides Claw-Eval's own fields, under one
 * top-level key `coworkenv` (Claw-Eval's loader ignores unknown top-level keys): CoworkEnv's
 * grading data and the TaskSpec fields task.yaml has no place for, so a re-import loses nothing.
 * The shared fields (ids, prompt, tools, endpoints, environment, user agent, rubric…) are read from
 * the top level, so an edit made there by hand takes effect.
 */
export const CoworkenvBlock = z.object({
  format: z.literal(BLOCK_FORMAT),
  language: z.enum(['en', 'zh']),
  scenario: z.string().optional(),
  reference_date: z.string().optional(),
  slot_id: z.number().int().optional(),
  /** The spec's service entries (port only if it had one); `inline`: its records are the service's fixture file. */
  services: z.array(z.looseObject({ name: z.string(), inline: z.boolean() })),
  checks: z.array(Check),
  prohibited: z.array(ProhibitedRule),
  /** Safety rules of the source task.yaml the grader cannot evaluate: grader.py reports them, incomplete. */
  safety_unevaluable: z.array(UnevaluableSafetyRule).optional(),
  reference_plan: z.array(PlanStep).optional(),
  reference_final_text: z.string().optional(),
  checks_origin: z.enum(['authored', 'derived_from_task_yaml']),
  /** Which of DECLARATIVE_KEYS were the spec's own (kept on re-import), not derived from its checks. */
  own_declarative: z.array(z.string()),
  /** Any other top-level key of the spec, as it was. */
  extra: z.record(z.string(), z.unknown()),
});
export type CoworkenvBlock = z.infer<typeof CoworkenvBlock>;

/** Where a block was read from, for errors: the task.yaml path and, at import, its text (for line numbers). */
export type BlockSource = { file: string; yamlText?: string };

/**
 * The TaskSpec a task folder exported from a TaskSpec stands for: undefined when its task.yaml has no `coworkenv`
 * block (a Claw-Eval task: checks are derived from its YAML instead). The importer (read-task.ts), the stored-task
 * reader (task-spec-of.ts) and validation all read it, so a re-imported export grades as it did before export.
 * Throws BlockError on a malformed block, naming file, line (when the text is known) and field.
 */
export function taskSpecOfBlock(
  yaml: Record<string, unknown>,
  fixtures: readonly { service: string; env: string; content: string }[],
  src: BlockSource,
): TaskSpec | undefined {
  const raw = yaml.coworkenv;
  if (raw === undefined) return undefined;
  const parsed = CoworkenvBlock.safeParse(raw);
  if (!parsed.success) throw blockError(src, ['coworkenv', ...issuePath(parsed.error)], parsed.error);
  const b = parsed.data;
  const y = yaml as Record<string, unknown> & ClawTaskYaml;
  const records = (service: string) => {
    const env = SERVICE_REGISTRY.get(service)?.fixtureEnv;
    const f = fixtures.find((x) => x.service === service && x.env === env);
    return f ? (toPlain(fixtureRecords(f) as PyValue) as Record<string, unknown>[]) : [];
  };
  const own = Object.fromEntries(b.own_declarative.filter((k) => k in y).map((k) => [k, y[k]]));
  const spec = TaskSpec.safeParse({
    ...b.extra,
    ...own,
    task_id: y.task_id,
    task_name: y.task_name,
    version: y.version,
    category: y.category,
    difficulty: y.difficulty,
    language: b.language,
    tags: y.tags,
    ...(b.scenario !== undefined ? { scenario: b.scenario } : {}),
    ...(b.reference_date !== undefined ? { reference_date: b.reference_date } : {}),
    ...(b.slot_id !== undefined ? { slot_id: b.slot_id } : {}),
    prompt: y.prompt,
    services: b.services.map(({ inline, ...s }) => (inline ? { ...s, records: records(s.name) } : s)),
    tools: y.tools,
    tool_endpoints: y.tool_endpoints,
    environment: y.environment,
    ...(y.user_agent !== undefined ? { user_agent: y.user_agent } : {}),
    checks: b.checks,
    prohibited: b.prohibited,
    safety_unevaluable: b.safety_unevaluable ?? [],
    ...(b.reference_plan !== undefined ? { reference_plan: b.reference_plan } : {}),
    ...(b.reference_final_text !== undefined ? { reference_final_text: b.reference_final_text } : {}),
    judge_rubric: y.judge_rubric,
    reference_solution: y.reference_solution,
    checks_origin: b.checks_origin,
  });
  if (!spec.success) throw blockError(src, specFieldPath(issuePath(spec.error)), spec.error);
  return spec.data;
}

/** The block reader for a task read from disk (tests, the exporter's round trip). */
export function taskSpecOfExport(read: {
  spec: ClawTaskYaml;
  fixtures: Parameters<typeof taskSpecOfBlock>[1];
  dir: string;
  yamlText: string;
}): TaskSpec | undefined {
  return taskSpecOfBlock(read.spec as Record<string, unknown>, read.fixtures, {
    file: `${read.dir}/task.yaml`,
    yamlText: read.yamlText,
  });
}

export class BlockError extends Error {}

const issuePath = (e: z.ZodError) => (e.issues[0]?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p)));

/**
 * A TaskSpec field's place in task.yaml: the grading fields live in the block, the shared ones at the top level, a
 * service's records in its fixture file (named by the block's services entry).
 */
function specFieldPath(p: (string | number)[]): (string | number)[] {
  const inBlock = new Set(['checks', 'prohibited', 'safety_unevaluable', 'reference_plan', 'reference_final_text']);
  const head = p[0];
  if (typeof head === 'string' && (inBlock.has(head) || head === 'services')) return ['coworkenv', ...p];
  return p;
}

function blockError(src: BlockSource, at: (string | number)[], e: z.ZodError): BlockError {
  const line = src.yamlText === undefined ? undefined : lineOf(src.yamlText, at);
  const where = line === undefined ? src.file : `${src.file}:${line}`;
  return new BlockError(`${where}: field ${at.join('.')}: ${e.issues[0]?.message ?? 'invalid'}`);
}

/** The 1-based line of the node at `at` in a YAML text, or of its deepest ancestor that exists (a missing key). */
export function lineOf(text: string, at: (string | number)[]): number | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, lineCounter: counter });
  for (let n = at.length; n > 0; n--) {
    const node = doc.getIn(at.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}
