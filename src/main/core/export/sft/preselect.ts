import {
  type RejectionReason,
  type SftBucket,
  type SftOptions,
  SftRecordMeta,
} from '../../../../shared/contract/entities/export';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import { AppError } from '../../lib/errors';
import type { z } from 'zod';

/**
 * One record as the lead feeds it: the metadata, and the trajectory or a function that loads it (read only when
 * needed).
 */
export type SftRecord = z.input<typeof SftRecordMeta> & { trajectory: Trajectory | (() => Trajectory) };

/** What selection keeps of a record between passes: small, so 100k records cost a few MB, never their bodies. */
export type Light = {
  id: string;
  order: number;
  taskId: string;
  trial: number | null;
  collection: string | null;
  /** Dedup stays inside it (§6.4); the collection when the record names none. */
  attemptSet: string | null;
  reward: number | null;
  bucket: SftBucket | null;
  override: 'include' | 'exclude' | null;
  pool: string;
  valid: boolean;
  prefix: string;
};

export type Verdict = { reason: RejectionReason; detail: string };

/** Task prefix for the TRIVIAL rule (§6.3): trailing variant / language suffixes stripped until none is left. */
export function taskPrefix(taskId: string, pattern: RegExp): string {
  let p = taskId;
  for (let i = 0; i < 16; i++) {
    const next = p.replace(pattern, '');
    if (next === p || !next) break;
    p = next;
  }
  return p;
}

export function compilePrefixPattern(source: string): RegExp {
  try {
    return new RegExp(source, 'i');
  } catch (e) {
    throw new AppError(
      'INVALID_INPUT',
      `trivialPrefixPattern is not a valid regular expression: ${(e as Error).message}`,
    );
  }
}

/** Pass 1: the metadata of every record (bodies untouched), validated, with each collection's supersede list. */
export function readLights(
  records: Iterable<SftRecord>,
  pattern: RegExp,
): { lights: Light[]; supersedes: Map<string, Set<string>> } {
  const it = records[Symbol.iterator]();
  if ((it as unknown) === records)
    throw new AppError(
      'INVALID_INPUT',
      'records must be re-iterable (an array, or an object whose [Symbol.iterator] starts a new pass): selection ' +
        'reads them more than once',
    );
  const lights: Light[] = [];
  const supersedes = new Map<string, Set<string>>();
  const ids = new Set<string>();
  for (let r = it.next(), order = 0; !r.done; r = it.next(), order++) {
    const parsed = SftRecordMeta.safeParse(r.value);
    if (!parsed.success) {
      const rid = (r.value as { recordId?: unknown })?.recordId;
      const i = parsed.error.issues[0]!;
      throw new AppError(
        'INVALID_INPUT',
        `record #${order}${typeof rid === 'string' ? ` (${rid})` : ''}: ${i.path.join('.') || 'record'}: ${i.message}`,
      );
    }
    const m = parsed.data;
    if (ids.has(m.recordId))
      throw new AppError('INVALID_INPUT', `record #${order}: recordId ${m.recordId} is used twice`);
    ids.add(m.recordId);
    if (m.collectionId !== null && m.supersedesCollections.length) {
      const s = supersedes.get(m.collectionId) ?? new Set<string>();
      for (const c of m.supersedesCollections) s.add(c);
      supersedes.set(m.collectionId, s);
    }
    lights.push({
      id: m.recordId,
      order,
      taskId: m.taskId,
      trial: m.trial,
      collection: m.collectionId,
      attemptSet: m.attemptSet ?? m.collectionId,
      reward: m.reward,
      bucket: m.bucket,
      override: m.includeOverride,
      pool: m.pool,
      valid: m.valid,
      prefix: m.taskPrefix ?? taskPrefix(m.taskId, pattern),
    });
  }
  return { lights, supersedes };
}

/** Collections each collection replaces, directly or through a chain (C3 → C2 → C1). */
function closure(direct: Map<string, Set<string>>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of direct.keys()) {
    const seen = new Set<string>();
    const stack = [...(direct.get(c) ?? [])];
    while (stack.length) {
      const x = stack.pop()!;
      if (x === c || seen.has(x)) continue;
      seen.add(x);
      stack.push(...(direct.get(x) ?? []));
    }
    out.set(c, seen);
  }
  return out;
}

/**
 * Steps 1–3 of §6.5 on metadata alone: replacement supersession, then dedup by (task, trial) within
 * an attempt set with the later record winning (trajectories/attempt-set.ts: never across models,
 * runs or collections), then buckets (UNSOLVABLE set aside), then the pool's reward threshold.
 * Answers a verdict for every record these steps reject; the others go on to the converter.
 */
export function preselect(
  lights: readonly Light[],
  supersedes: Map<string, Set<string>>,
  o: SftOptions,
): { verdicts: Map<string, Verdict>; unsolvableTasks: string[] } {
  const verdicts = new Map<string, Verdict>();
  const replaces = closure(supersedes);
  // For each (task, superseded collection): the collection that re-executed the task.
  const replacedBy = new Map<string, string>();
  for (const l of lights) {
    if (l.collection === null) continue;
    for (const old of replaces.get(l.collection) ?? []) replacedBy.set(`${l.taskId}\u0000${old}`, l.collection);
  }
  const latest = new Map<string, Light>();
  for (const l of lights) {
    const by = l.collection === null ? undefined : replacedBy.get(`${l.taskId}\u0000${l.collection}`);
    if (by !== undefined) {
      verdicts.set(l.id, { reason: 'superseded', detail: `task ${l.taskId} was re-executed in collection ${by}` });
      continue;
    }
    if (l.trial === null) continue;
    const key = `${l.attemptSet ?? ''}\u0000${l.taskId}\u0000${l.trial}`;
    const prev = latest.get(key);
    if (prev)
      verdicts.set(prev.id, {
        reason: 'duplicate',
        detail: `record ${l.id} (stored later) has the same task and trial in the same run, agent and collection`,
      });
    latest.set(key, l);
  }
  const admitted = new Set(o.admittedBuckets);
  const unsolvable = new Set<string>();
  for (const l of lights) {
    if (verdicts.has(l.id)) continue;
    if (l.override === 'exclude') {
      verdicts.set(l.id, { reason: 'excluded_by_curation', detail: 'excluded by a curation override' });
      continue;
    }
    const bucket = l.bucket ?? 'UNBUCKETED';
    // An include override admits the record whatever its task's bucket; the pool threshold still applies.
    if (l.override !== 'include' && !admitted.has(bucket)) {
      if (bucket === 'UNSOLVABLE') unsolvable.add(l.taskId);
      const reason =
        bucket === 'UNSOLVABLE' ? 'unsolvable' : bucket === 'UNBUCKETED' ? 'unbucketed' : 'bucket_not_admitted';
      verdicts.set(l.id, { reason, detail: `task ${l.taskId} is ${bucket}` });
      continue;
    }
    const v = thresholdVerdict(l, o);
    if (v) verdicts.set(l.id, v);
  }
  return { verdicts, unsolvableTasks: [...unsolvable].sort() };
}

function thresholdVerdict(l: Light, o: SftOptions): Verdict | null {
  if (!l.valid)
    return { reason: 'invalid_rollout', detail: 'an invalid rollout (infrastructure error or grader crash)' };
  const rule = o.pools[l.pool];
  if (!rule)
    return { reason: 'unknown_pool', detail: `pool ${l.pool} has no rule (known: ${Object.keys(o.pools).join(', ')})` };
  if (rule.minReward === null) return null;
  if (l.reward === null)
    return { reason: 'reward_missing', detail: `pool ${l.pool} needs a reward ≥ ${rule.minReward}` };
  if (!(l.reward >= rule.minReward))
    return { reason: 'below_threshold', detail: `reward ${l.reward} < ${rule.minReward} (pool ${l.pool})` };
  return null;
}
