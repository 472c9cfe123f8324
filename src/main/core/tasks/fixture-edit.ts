import { createHash } from 'node:crypto';
import type { WriteDb } from '../db/sqlite';
import { AppError, notFound } from '../lib/errors';
import { dumpsPy, isObject, parsePyJson, setField, toPlain, type PyObject, type PyValue } from '../py/pyjson';
import { SERVICE_REGISTRY } from '../services/registry';
import { validateStored } from '../validation/validate-stored';
import { validationWriter } from '../validation/validation.repo';
import { assertUniqueKey, fixtureColumns, parseCell } from './fixture-columns';
import { tasksRepo, tasksWriter } from './tasks.repo';
import { slotsRepo } from '../plan/slots.repo';
import { storeTaskSpec } from './spec-store';
import { fixturesOfTask } from './spec-fixtures';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';

type Repo = ReturnType<typeof tasksRepo>;

/** The record schema and key of one fixture file of a service (web has two files). */
export function fixtureSchema(service: string, env: string) {
  const def = SERVICE_REGISTRY.get(service);
  if (!def) return undefined;
  return env === def.fixtureEnv
    ? { schema: def.recordSchema, key: def.recordKey }
    : def.extraFixtures?.find((x) => x.env === env) && {
        schema: def.extraFixtures.find((x) => x.env === env)!.recordSchema,
        key: def.extraFixtures.find((x) => x.env === env)!.recordKey,
      };
}

function loadRecords(repo: Repo, taskId: string, service: string, env?: string) {
  const task = repo.get(taskId);
  if (!task) throw notFound(`task ${taskId} (deleted by another writer?)`);
  const fixtures = fixturesOfTask(repo, taskId);
  const def = SERVICE_REGISTRY.get(service);
  const fixtureEnv = env ?? def?.fixtureEnv;
  const f = fixtures.find((x) => x.service === service && x.env === fixtureEnv);
  if (!f || !def) throw notFound(`fixture ${fixtureEnv ?? ''} of service ${service} in task ${taskId}`);
  const s = fixtureSchema(service, f.env);
  return { task, fixtures, fixture: f, schema: s?.schema, key: s?.key, records: parsePyJson(f.content) as PyValue[] };
}

const toRow = (r: PyValue): Record<string, string> =>
  isObject(r) ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k, dumpsPy(v)])) : { value: dumpsPy(r) };

export function fixtureRows(repo: Repo, taskId: string, service: string, env?: string) {
  const { records, schema, key, task } = loadRecords(repo, taskId, service, env);
  const { columns } = fixtureColumns(records, schema, key);
  return {
    columns: columns.map((c) => c.name),
    rows: records.map(toRow),
    requiredColumns: columns.filter((c) => c.required).map((c) => c.name),
    columnTypes: columns.map(({ declared: _d, ...c }) => ({ ...c, values: c.values ? [...c.values] : undefined })),
    key: key ?? null,
    version: task.row.version,
  };
}

/**
 * Writes new fixture texts as the task's next version (inside the caller's transaction), then runs
 * the task's validators on it at once — about a millisecond per task (bench/validation) — so the
 * status in the grid says whether this version passes; the report of each version is kept.
 */
export function commitFixtures(
  db: WriteDb,
  taskId: string,
  changed: { service: string; env: string; content: string; records: number }[],
  reason: string,
  now: string,
) {
  const repo = tasksRepo(db);
  const writer = tasksWriter(db);
  const task = repo.get(taskId)!;
  const fixtures = repo.fixtures(taskId);
  const hash = createHash('sha256').update(task.sourceYaml);
  for (const f of fixtures) {
    const c = changed.find((x) => x.service === f.service && x.env === f.env);
    hash.update(`\0${f.env}\0${c ? c.content : f.content}`);
  }
  const digest = hash.digest('hex');
  const version = task.row.version + 1;
  for (const c of changed) writer.writeFixture(taskId, c.service, c.env, c.content, c.records, version, digest, now);
  writer.recordVersion(taskId, version, digest, reason, now);
  const validated = validateStored(repo, taskId, now, (id) => slotsRepo(db).get(id));
  if (validated) validationWriter(db).save(taskId, validated.rounds, validated.hash);
  const status = (validated?.rounds.at(-1)?.valid ? 'valid' : 'invalid') as 'valid' | 'invalid';
  return { version, status };
}

/**
 * Edits one field in the stored fixture text. Only that field changes: every other value keeps
 * its exact JSON text (floats stay floats), so a Claw-Eval re-export differs by this edit alone.
 * The value keeps its column's type (fixture-columns.ts); a key stays unique; a required field
 * cannot be emptied. `expected` (an undo) is the text the cell must still hold: a cell another
 * writer changed since is refused with CONFLICT, never silently overwritten.
 */
export function updateFixtureCell(
  db: WriteDb,
  input: {
    taskId: string;
    service: string;
    fixtureEnv?: string | undefined;
    index: number;
    field: string;
    value: string;
    expected?: string | null | undefined;
  },
  now: string,
) {
  const repo = tasksRepo(db);
  const { fixture, schema, key, records, task } = loadRecords(repo, input.taskId, input.service, input.fixtureEnv);
  const rec = records[input.index];
  const where = `record ${input.index + 1}`;
  if (!isObject(rec))
    throw new AppError(
      'NOT_FOUND',
      `${where} of ${input.service}'s fixture was deleted by another writer; nothing was saved`,
      [{ path: ['index'], message: 'no such record' }],
    );
  // Own fields only: `in` finds constructor, toString… on Object.prototype in every record.
  const current = Object.hasOwn(rec, input.field) ? dumpsPy(rec[input.field]!) : null;
  if (input.expected !== undefined && input.expected !== current)
    throw new AppError(
      'CONFLICT',
      `${where} · ${input.field} was changed by another writer (now ${current ?? 'empty'}); it was left as it is`,
      [{ path: [input.field], message: 'changed since' }],
    );
  const { columns, floats } = fixtureColumns(records, schema, key);
  const col = columns.find((c) => c.name === input.field) ?? {
    name: input.field,
    type: 'json' as const,
    nullable: true,
    required: false,
    key: false,
    declared: false,
  };
  const value = parseCell(input.value, col, floats.has(col.name), `${where} · ${input.field}`);
  if (col.key) assertUniqueKey(records, input.index, col.name, value, `${where} · ${input.field}`);
  const next: PyObject = { ...rec };
  if (value === undefined) delete next[input.field];
  else setField(next, input.field, value); // a field named __proto__ is data too, not the record's prototype
  const v = schema?.safeParse(toPlain(next));
  // Only the edited field answers for this edit: another field may already be outside our vocabulary (an imported
  // task keeps upstream's values, with a warning), and refusing every edit of that record for it would help no one.
  const i = v && !v.success ? v.error.issues.find((x) => String(x.path[0] ?? input.field) === input.field) : undefined;
  if (i) {
    throw new AppError(
      'INVALID_INPUT',
      `${where} · ${i.path.join('.') || input.field}: ${i.message}; nothing was saved`,
      [{ path: [String(i.path[0] ?? input.field)], message: i.message }],
    );
  }
  if (dumpsPy(next) === dumpsPy(rec))
    return { version: repo.get(input.taskId)!.row.version, row: toRow(rec), status: null };
  records[input.index] = next;
  const reason = `edit of ${input.service} (${fixture.env}) ${where} field ${input.field}`;
  if (fixture.inline) {
    const out = commitInlineRecords(db, task, input.service, records, reason, now);
    return { version: out.version, row: toRow(next), status: out.status };
  }
  const content = dumpsPy(records, { itemSep: ', ', keySep: ': ' });
  const out = commitFixtures(
    db,
    input.taskId,
    [{ service: input.service, env: fixture.env, content, records: records.length }],
    reason,
    now,
  );
  return { version: out.version, row: toRow(next), status: out.status };
}

/**
 * An edit of records inline in a TaskSpec (generated, hand-written tasks): the spec with the
 * service's new records is the task's next version, validated at once like a fixture file edit.
 */
function commitInlineRecords(
  db: WriteDb,
  task: NonNullable<ReturnType<Repo['get']>>,
  service: string,
  records: PyValue[],
  reason: string,
  now: string,
) {
  const spec = task.spec as unknown as TaskSpec;
  const plain = records.map((r) => toPlain(r) as Record<string, unknown>);
  const next = { ...spec, services: spec.services.map((s) => (s.name === service ? { ...s, records: plain } : s)) };
  const origin = task.row.origin === 'generated' ? 'generated' : 'manual';
  const version = storeTaskSpec(db, next, { origin, now, reason });
  const validated = validateStored(tasksRepo(db), task.row.task_id, now, (id) => slotsRepo(db).get(id));
  if (validated) validationWriter(db).save(task.row.task_id, validated.rounds, validated.hash);
  return { version, status: (validated?.rounds.at(-1)?.valid ? 'valid' : 'invalid') as 'valid' | 'invalid' };
}
