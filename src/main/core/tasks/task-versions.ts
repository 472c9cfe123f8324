import type { ReadDb, WriteDb } from '../db/sqlite';
import { AppError, notFound } from '../lib/errors';
import { SERVICE_REGISTRY } from '../services/registry';
import { dumpsPy, isObject, parsePyJson, type PyValue } from '../py/pyjson';
import { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { saveSpecVersion } from '../grading/update-check';
import { commitFixtures, fixtureSchema } from './fixture-edit';
import { tasksRepo } from './tasks.repo';

/** Which service reads a fixture env (GMAIL_FIXTURES → gmail). */
const serviceOfEnv = (env: string) =>
  [...SERVICE_REGISTRY.values()].find((d) => d.fixtureEnv === env || d.extraFixtures?.some((x) => x.env === env))?.id;

type Change = { record: number; key: string | null; field: string; before: string | null; after: string | null };
export type FixtureDiff = {
  service: string;
  env: string;
  added: { record: number; key: string | null }[];
  removed: { record: number; key: string | null }[];
  changed: Change[];
};

const records = (text: string | undefined): PyValue[] => {
  if (text === undefined) return [];
  try {
    const v = parsePyJson(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

/**
 * Record-level diff of one fixture between two versions: records are matched by the service's key
 * (by position when a record has none); changed fields list before/after as JSON text. Record
 * numbers are 1-based, as the grid shows them.
 */
function diffFixture(service: string, env: string, before: string | undefined, after: string | undefined): FixtureDiff {
  const key = fixtureSchema(service, env)?.key;
  const a = records(before);
  const b = records(after);
  const idOf = (r: PyValue, i: number) =>
    key && isObject(r) && r[key] !== undefined ? `k:${dumpsPy(r[key]!)}` : `i:${i}`;
  const keyText = (r: PyValue) => (key && isObject(r) && typeof r[key] === 'string' ? (r[key] as string) : null);
  const ia = new Map(a.map((r, i) => [idOf(r, i), i]));
  const ib = new Map(b.map((r, i) => [idOf(r, i), i]));
  const out: FixtureDiff = { service, env, added: [], removed: [], changed: [] };
  for (const [id, i] of ia) if (!ib.has(id)) out.removed.push({ record: i + 1, key: keyText(a[i]!) });
  for (const [id, j] of ib) {
    const i = ia.get(id);
    if (i === undefined) {
      out.added.push({ record: j + 1, key: keyText(b[j]!) });
      continue;
    }
    const ra = a[i]!;
    const rb = b[j]!;
    if (!isObject(ra) || !isObject(rb)) continue;
    for (const f of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
      const x = f in ra ? dumpsPy(ra[f]!) : null;
      const y = f in rb ? dumpsPy(rb[f]!) : null;
      if (x !== y) out.changed.push({ record: j + 1, key: keyText(rb), field: f, before: x, after: y });
    }
  }
  return out;
}

/** What changed in a task's fixtures from `against` (default: the version before) to `version`. */
export function versionDiff(db: ReadDb, taskId: string, version: number, against?: number) {
  const repo = tasksRepo(db);
  if (!repo.get(taskId)) throw notFound(`task ${taskId}`);
  const to = repo.versionFixtures(taskId, version);
  if (!to) throw notFound(`version ${version} of task ${taskId}`);
  const fromVersion = against ?? version - 1;
  const from = fromVersion >= 1 ? repo.versionFixtures(taskId, fromVersion) : undefined;
  if (against !== undefined && !from) throw notFound(`version ${against} of task ${taskId}`);
  const envs = [...new Set([...Object.keys(from ?? {}), ...Object.keys(to)])];
  const fixtures = envs
    .map((env) => diffFixture(serviceOfEnv(env) ?? env, env, from?.[env], to[env]))
    .filter((d) => d.added.length || d.removed.length || d.changed.length);
  const specOf = (v: number) => (v >= 1 ? repo.versionSpec(taskId, v) : undefined);
  const checks = diffChecks(fromVersion >= 1 ? specOf(fromVersion) : '{}', specOf(version));
  return { taskId, version, against: from ? fromVersion : null, fixtures, checks };
}

type CheckChange = { id: string; change: 'added' | 'removed' | 'changed'; before: string | null; after: string | null };

/** Checks added, removed or changed (by id) between two stored specs; nothing when either was not kept. */
function diffChecks(before: string | null | undefined, after: string | null | undefined): CheckChange[] {
  if (!before || !after) return [];
  const list = (json: string) => {
    const checks = (JSON.parse(json) as { checks?: { id: string }[] }).checks;
    return new Map((Array.isArray(checks) ? checks : []).map((c) => [c.id, JSON.stringify(c)]));
  };
  const a = list(before);
  const b = list(after);
  const out: CheckChange[] = [];
  for (const [id, x] of a) if (!b.has(id)) out.push({ id, change: 'removed', before: x, after: null });
  for (const [id, y] of b) {
    const x = a.get(id);
    if (x === undefined) out.push({ id, change: 'added', before: null, after: y });
    else if (x !== y) out.push({ id, change: 'changed', before: x, after: y });
  }
  return out;
}

/**
 * A new version whose checks (spec) and fixtures equal those of `version` (revert, and the undo of a
 * check edit), validated like any edit; a restored spec re-grades the task's trajectories through
 * the same path as a check edit. `expectedVersion` (an undo) refuses with CONFLICT when another
 * writer made a version since. Nothing is erased: the versions in between stay.
 */
export function revertTo(db: WriteDb, taskId: string, version: number, now: string, expectedVersion?: number) {
  const repo = tasksRepo(db);
  const task = repo.get(taskId);
  if (!task) throw notFound(`task ${taskId}`);
  if (expectedVersion !== undefined && expectedVersion !== task.row.version)
    throw new AppError(
      'CONFLICT',
      `task ${taskId} is at version ${task.row.version} now (expected ${expectedVersion}); nothing was reverted`,
      [{ path: ['expectedVersion'], message: 'changed since' }],
    );
  const old = repo.versionFixtures(taskId, version);
  if (!old) throw notFound(`version ${version} of task ${taskId}`);
  const reason = `revert to version ${version}`;
  const oldSpec = task.row.origin === 'imported' ? null : (repo.versionSpec(taskId, version) ?? null);
  const specChanged = oldSpec !== null && oldSpec !== JSON.stringify(task.spec);
  const graded = specChanged
    ? saveSpecVersion(db, parsedSpec(oldSpec, taskId, version), task.row.origin, reason, now)
    : null;
  const changed = repo
    .fixtures(taskId)
    .filter((f) => old[f.env] !== undefined && old[f.env] !== f.content)
    .map((f) => ({ service: f.service, env: f.env, content: old[f.env]!, records: records(old[f.env]).length }));
  const none = { regraded: 0, changed: 0, meanBefore: null, meanAfter: null, ids: [] as number[] };
  if (changed.length) {
    const out = commitFixtures(db, taskId, changed, reason, now);
    return { ...(graded ?? none), ...out, checksRestored: specChanged };
  }
  if (graded) return { ...graded, status: graded.validation, checksRestored: true };
  const lost = task.row.origin !== 'imported' && repo.versionSpec(taskId, version) === null;
  throw new AppError(
    'INVALID_INPUT',
    lost
      ? `version ${version} of ${taskId} was saved before versions kept their checks: only its fixtures can be ` +
          'restored, and they already equal it; nothing to revert'
      : `the fixtures and checks of ${taskId} already equal version ${version}; nothing to revert`,
  );
}

const parsedSpec = (json: string, taskId: string, version: number): TaskSpec => {
  const raw = JSON.parse(json) as TaskSpec;
  const r = TaskSpec.safeParse(raw);
  if (r.success) return raw; // as it was stored, so the restored version's text equals the old one's
  const i = r.error.issues[0]!;
  throw new AppError(
    'INVALID_INPUT',
    `version ${version} of task ${taskId}: field ${i.path.join('.') || '(spec)'}: ${i.message}; it cannot be restored`,
  );
};
