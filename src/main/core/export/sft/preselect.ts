import { type SftOptions, SftRecordMeta } from '../../../../shared/contract/entities/export';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import { AppError } from '../../lib/errors';
import type { z } from 'zod';
import { LightTable } from './light-table';
import { markDuplicates } from './duplicate-rule';
import { rowReason, Verdicts } from './verdicts';

/**
 * One record as the lead feeds it: the metadata, and the trajectory or a function that loads it (read only when
 * needed).
 */
export type SftRecord = z.input<typeof SftRecordMeta> & { trajectory: Trajectory | (() => Trajectory) };

export type { Light } from './light-table';
export type { Verdict } from './verdicts';

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
): { table: LightTable; supersedes: Map<string, Set<string>> } {
  const it = records[Symbol.iterator]();
  if ((it as unknown) === records)
    throw new AppError(
      'INVALID_INPUT',
      'records must be re-iterable (an array, or an object whose [Symbol.iterator] starts a new pass): selection ' +
        'reads them more than once',
    );
  const table = new LightTable();
  const supersedes = new Map<string, Set<string>>();
  const prefixOf = new Map<string, string>();
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
    if (m.collectionId !== null && m.supersedesCollections.length) {
      const s = supersedes.get(m.collectionId) ?? new Set<string>();
      for (const c of m.supersedesCollections) s.add(c);
      supersedes.set(m.collectionId, s);
    }
    let prefix = m.taskPrefix ?? prefixOf.get(m.taskId);
    if (prefix === undefined) prefixOf.set(m.taskId, (prefix = taskPrefix(m.taskId, pattern)));
    table.push({
      id: m.recordId,
      taskId: m.taskId,
      trial: m.trial,
      collection: m.collectionId,
      attemptSet: m.attemptSet ?? m.collectionId,
      reward: m.reward,
      bucket: m.bucket,
      override: m.includeOverride,
      pool: m.pool,
      valid: m.valid,
      pending: m.judgePending,
      prefix,
    });
  }
  const repeated = table.firstRepeatedId();
  if (repeated)
    throw new AppError(
      'INVALID_INPUT',
      `record #${repeated.index}: recordId ${table.id(repeated.index)} is used twice`,
    );
  return { table, supersedes };
}

/** Collections each collection replaces, directly or through a chain (C3 → C2 → C1). */
export function closure(direct: Map<string, Set<string>>): Map<string, Set<string>> {
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

/** Step 1, replacement: a record of a task that a later collection (of its supersede chain) re-executed. */
function markSuperseded(t: LightTable, supersedes: Map<string, Set<string>>, v: Verdicts): void {
  const replaces = new Map<number, number[]>();
  for (const [c, olds] of closure(supersedes))
    replaces.set(
      t.intern(c),
      [...olds].map((o) => t.intern(o)),
    );
  if (!replaces.size) return;
  // Per superseded collection, per task: the collection that re-executed it (the last one read wins).
  const replacedBy = new Map<number, Map<number, number>>();
  for (let i = 0; i < t.size; i++) {
    const olds = replaces.get(t.collectionKey(i));
    if (!olds) continue;
    for (const old of olds) {
      let byTask = replacedBy.get(old);
      if (!byTask) replacedBy.set(old, (byTask = new Map()));
      byTask.set(t.taskKey(i), t.collectionKey(i));
    }
  }
  for (let i = 0; i < t.size; i++) {
    const by = replacedBy.get(t.collectionKey(i))?.get(t.taskKey(i));
    if (by !== undefined) v.set(i, 'superseded', by);
  }
}

/**
 * Steps 1–3 of §6.5 on metadata alone: replacement supersession, then dedup by (task, trial) within
 * an attempt set with the later record winning (never across models, runs or collections), then
 * buckets (UNSOLVABLE set aside), then the pool's reward threshold.
 * Answers a verdict for every record these steps reject; the others go on to the converter.
 */
export function preselect(
  t: LightTable,
  supersedes: Map<string, Set<string>>,
  o: SftOptions,
): { verdicts: Verdicts; unsolvableTasks: string[] } {
  const v = new Verdicts(t, o);
  markSuperseded(t, supersedes, v);
  markDuplicates(t, v);
  const admitted = new Set<string>(o.admittedBuckets);
  const unsolvable = new Set<string>();
  for (let i = 0; i < t.size; i++) {
    if (v.has(i)) continue;
    const row = {
      override: t.overrideOf(i),
      bucket: t.bucketOf(i),
      valid: t.isValid(i),
      reward: t.rewardOf(i),
      pending: t.isPending(i),
    };
    const reason = rowReason({ ...row, pool: t.string(t.poolKey(i)) }, admitted, o);
    if (reason === 'unsolvable') unsolvable.add(t.string(t.taskKey(i)));
    if (reason) v.set(i, reason);
  }
  return { verdicts: v, unsolvableTasks: [...unsolvable].sort() };
}
