import { createHash } from 'node:crypto';
import path from 'node:path';
import YAML from 'yaml';
import { MAX_JSON_DEPTH } from '../../lib/json-input';
import { checkFixture, fixtureRulesOf, issueText, type FixtureRules } from '../../services/fixture-check';
import { parsePyJsonText } from '../../py/pyjson';
import { SERVICE_REGISTRY } from '../../services/registry';
import { BlockError, taskSpecOfBlock } from './coworkenv-block';
import { quirkWarnings } from './quirks';
import { ClawTaskYaml, splitOf } from './task-yaml';
import {
  MAX_FIXTURE_BYTES,
  MAX_TASK_YAML_BYTES,
  readTaskFile,
  resolveFixturePath,
  type TaskLocation,
} from './task-files';
import { yamlTooDeep } from './yaml-depth';

export type FixtureFile = {
  service: string;
  env: string;
  setByTask: boolean;
  source: string;
  content: string;
  records: number;
};

export type ReadTask = {
  taskId: string;
  dir: string;
  yamlText: string;
  spec: ClawTaskYaml;
  split: ReturnType<typeof splitOf>;
  fixtures: FixtureFile[];
  warnings: string[];
  contentHash: string;
};

/**
 * Errors name the file, the task and the field; the caller keeps importing the other tasks. `errors` holds every
 * reason the task was refused (the message is the first).
 */
export class TaskImportError extends Error {
  readonly errors: string[];
  constructor(errors: string | string[]) {
    const list = typeof errors === 'string' ? [errors] : errors;
    super(list[0]);
    this.errors = list;
  }
}

function parseYaml(file: string, text: string): unknown {
  // Before composing, which recurses: past ~1,000 levels it reported a stack overflow, not the nesting.
  const deep = yamlTooDeep(text, MAX_JSON_DEPTH);
  if (deep) throw new TaskImportError(`${file}:${deep.line}:${deep.col}: nested deeper than ${MAX_JSON_DEPTH} levels`);
  let doc: ReturnType<typeof YAML.parseDocument>;
  try {
    // YAML 1.1, as PyYAML safe_load reads it (15:00 → 900, §4.2); aliases capped against alias bombs.
    doc = YAML.parseDocument(text, { version: '1.1', uniqueKeys: false });
  } catch (err) {
    throw new TaskImportError(`${file}: not YAML: ${(err as Error).message}`);
  }
  const e = doc.errors[0];
  if (e)
    throw new TaskImportError(`${file}:${e.linePos?.[0]?.line ?? '?'}: not valid YAML: ${e.message.split('\n')[0]}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    // Aliases can nest a shallow text deeply (an anchor holding an alias of the one before); toJS recurses.
    if (err instanceof RangeError && /call stack/i.test(err.message))
      throw new TaskImportError(`${file}: nested deeper than ${MAX_JSON_DEPTH} levels (through aliases)`);
    throw new TaskImportError(`${file}: ${(err as Error).message}`);
  }
  const bad = unstorable(value, []);
  if (bad) throw new TaskImportError(`${file}: field ${bad.at.join('.') || '(top level)'}: ${bad.message}`);
  return value;
}

/**
 * What JSON cannot keep: .inf, .nan and numbers beyond a double (the spec is stored as JSON, where
 * they would silently become null), and nesting deeper than MAX_JSON_DEPTH.
 */
function unstorable(v: unknown, at: (string | number)[]): { at: (string | number)[]; message: string } | undefined {
  if (typeof v === 'number')
    return Number.isFinite(v)
      ? undefined
      : { at, message: `${v} cannot be stored (a number beyond ±1.8e308, .inf or .nan)` };
  if (typeof v !== 'object' || v === null) return undefined;
  if (at.length >= MAX_JSON_DEPTH) return { at, message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  for (const [k, x] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
    const bad = unstorable(x, [...at, k]);
    if (bad) return bad;
  }
  return undefined;
}

export function readClawTask(loc: TaskLocation): ReadTask {
  const file = path.join(loc.dir, 'task.yaml');
  let yamlText: string;
  try {
    yamlText = readTaskFile(file, loc, MAX_TASK_YAML_BYTES);
  } catch (err) {
    throw new TaskImportError((err as Error).message);
  }
  const parsed = ClawTaskYaml.safeParse(parseYaml(file, yamlText));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new TaskImportError(`${file}: field ${i.path.join('.') || '(top level)'}: ${i.message}`);
  }
  const spec = parsed.data;
  const warnings = quirkWarnings(spec);
  const fixtures: FixtureFile[] = [];
  const refusals: string[] = [];
  // The wall clock, as upstream's services start with it: gmail and calendar shift their dates from it at load.
  const now = new Date();
  for (const svc of spec.services) {
    const def = SERVICE_REGISTRY.get(svc.name);
    if (!def) continue; // reported by quirkWarnings: not re-hosted
    for (const f of fixtureRulesOf(def)) {
      const set = svc.env[f.env];
      const rel = set ?? f.defaultFixture;
      let abs: string;
      try {
        abs = resolveFixturePath(rel, loc, spec.task_id);
      } catch (err) {
        throw new TaskImportError(
          `${spec.task_id}: service ${svc.name} ` +
            `(${set ? f.env : `default fixture for ${f.env}`}): ${(err as Error).message}`,
        );
      }
      if (!set && !rel.startsWith(`tasks/${spec.task_id}/`)) {
        warnings.push(
          `service ${svc.name} sets no ${f.env}: upstream loads the default fixture ${rel}, another task's data` +
            (spec.prompt.language === 'en' ? " (an English task served the Chinese original's fixture, Q8)" : ''),
        );
      }
      const read = readFixture(abs, rel, loc, f, set !== undefined, spec.task_id, now);
      fixtures.push(read.file);
      refusals.push(...read.errors);
      warnings.push(...read.warnings);
    }
  }
  if (refusals.length) throw new TaskImportError(refusals);
  // A folder exported from a TaskSpec: its coworkenv block is what grades it, so a bad hand edit refuses the task here,
  // naming file, line and field, rather than grading with checks nobody wrote.
  try {
    taskSpecOfBlock(spec as Record<string, unknown>, fixtures, { file, yamlText });
  } catch (err) {
    if (err instanceof BlockError) throw new TaskImportError(err.message);
    throw err;
  }
  const hash = createHash('sha256').update(yamlText);
  for (const f of fixtures) hash.update(`\0${f.env}\0${f.content}`);
  return {
    taskId: spec.task_id,
    dir: loc.dir,
    yamlText,
    spec,
    split: splitOf(spec.tags),
    fixtures,
    warnings,
    contentHash: hash.digest('hex'),
  };
}

/**
 * Reads one fixture file. Only what upstream itself could not serve refuses the task (fixture-check.ts: not an array,
 * a record that is not an object or lacks a field upstream reads, a value its start-up cannot parse); a record outside
 * our vocabulary is a warning naming file, record, field and value — upstream loads records as plain JSON.
 */
function readFixture(
  abs: string,
  rel: string,
  loc: TaskLocation,
  rules: FixtureRules,
  setByTask: boolean,
  taskId: string,
  now: Date,
): { file: FixtureFile; errors: string[]; warnings: string[] } {
  const service = rules.service;
  let text: string;
  try {
    text = readTaskFile(abs, loc, MAX_FIXTURE_BYTES);
  } catch (err) {
    throw new TaskImportError(`${taskId}: service ${service}: cannot read fixture ${rel}: ${(err as Error).message}`);
  }
  const parsed = parsePyJsonText(text, rel);
  if (!parsed.ok) throw new TaskImportError(`${taskId}: service ${service}: ${parsed.message}`);
  const { unusable, unusual } = checkFixture(rules, parsed.value, now);
  const records = Array.isArray(parsed.value) ? parsed.value.length : 0;
  return {
    file: { service, env: rules.env, setByTask, source: rel, content: text, records },
    errors: unusable.map((i) =>
      !Array.isArray(parsed.value)
        ? `${taskId}: service ${service}: fixture ${rel} is ${i.problem}`
        : `${taskId}: fixture ${rel}: ${issueText(i)}`,
    ),
    warnings: unusual.map((i) => `fixture ${rel}: ${issueText(i)}; kept as it is (upstream serves it)`),
  };
}
