import { createHash } from 'node:crypto';
import { AppError, notFound } from '../lib/errors';
import {
  dumpsPy,
  isObject,
  parsePyJson,
  parsePyJsonText,
  toPlain,
  type PyObject,
  type PyValue,
} from '../services/pyjson';
import { SERVICE_REGISTRY } from '../services/registry';
import type { tasksRepo, tasksWriter } from './tasks.repo';

type Repo = ReturnType<typeof tasksRepo>;

function loadRecords(repo: Repo, taskId: string, service: string, env?: string) {
  const task = repo.get(taskId);
  if (!task) throw notFound(`task ${taskId}`);
  const fixtures = repo.fixtures(taskId);
  const def = SERVICE_REGISTRY.get(service);
  const fixtureEnv = env ?? def?.fixtureEnv;
  const f = fixtures.find((x) => x.service === service && x.env === fixtureEnv);
  if (!f || !def) throw notFound(`fixture ${fixtureEnv ?? ''} of service ${service} in task ${taskId}`);
  const schema =
    f.env === def.fixtureEnv ? def.recordSchema : def.extraFixtures?.find((x) => x.env === f.env)?.recordSchema;
  return { task, fixtures, fixture: f, schema, records: parsePyJson(f.content) as PyValue[] };
}

const toRow = (r: PyValue): Record<string, string> =>
  isObject(r) ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k, dumpsPy(v)])) : { value: dumpsPy(r) };

const requiredOf = (schema: unknown): string[] => {
  const shape =
    (schema as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> } | undefined)?.shape ?? {};
  return Object.entries(shape)
    .filter(([, s]) => !s.safeParse(undefined).success)
    .map(([k]) => k);
};

export function fixtureRows(repo: Repo, taskId: string, service: string, env?: string) {
  const { records, schema } = loadRecords(repo, taskId, service, env);
  const columns: string[] = [];
  for (const r of records) if (isObject(r)) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return { columns, rows: records.map(toRow), requiredColumns: requiredOf(schema) };
}

/**
 * Edits one field in the stored fixture text. Only that field changes: every other value keeps
 * its exact JSON text (floats stay floats), so a Claw-Eval re-export differs by this edit alone.
 */
export function updateFixtureCell(
  repo: Repo,
  writer: ReturnType<typeof tasksWriter>,
  input: {
    taskId: string;
    service: string;
    fixtureEnv?: string | undefined;
    index: number;
    field: string;
    value: string;
  },
  now: string,
) {
  const { task, fixtures, fixture, schema, records } = loadRecords(repo, input.taskId, input.service, input.fixtureEnv);
  const rec = records[input.index];
  if (!isObject(rec))
    throw new AppError('INVALID_INPUT', `record ${input.index} does not exist in ${input.service}'s fixture`, [
      { path: ['index'], message: 'no such record' },
    ]);
  // `next.__proto__ = v` would set the object's prototype, not a field: the value would vanish.
  if (input.field === '__proto__')
    throw new AppError('INVALID_INPUT', '__proto__ cannot be a fixture field name; nothing was saved', [
      { path: ['field'], message: 'not a usable field name' },
    ]);
  const next: PyObject = { ...rec };
  if (input.value.trim() === '') delete next[input.field];
  else {
    const parsed = parsePyJsonText(input.value, input.field);
    if (!parsed.ok)
      throw new AppError(
        'INVALID_INPUT',
        `${parsed.message}; nothing was saved (text values go in quotes, e.g. "Vendor review")`,
        [{ path: [input.field], message: parsed.message.slice(input.field.length + 1) }],
      );
    next[input.field] = parsed.value;
  }
  const v = schema?.safeParse(toPlain(next));
  if (v && !v.success) {
    const i = v.error.issues[0]!;
    throw new AppError(
      'INVALID_INPUT',
      `record ${input.index}: field ${i.path.join('.') || input.field}: ${i.message}; nothing was saved`,
      [{ path: [String(i.path[0] ?? input.field)], message: i.message }],
    );
  }
  records[input.index] = next;
  const content = dumpsPy(records, { itemSep: ', ', keySep: ': ' });
  const hash = createHash('sha256').update(task.sourceYaml);
  for (const f of fixtures)
    hash.update(`\0${f.env}\0${f.env === fixture.env && f.service === fixture.service ? content : f.content}`);
  const digest = hash.digest('hex');
  const version = task.row.version + 1;
  writer.writeFixture(input.taskId, input.service, fixture.env, content, records.length, version, digest, now);
  writer.recordVersion(
    input.taskId,
    version,
    digest,
    `edit of ${input.service} (${fixture.env}) record ${input.index} field ${input.field}`,
    now,
  );
  return { version, row: toRow(next) };
}
