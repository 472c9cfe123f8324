import type { SftOptions } from '../../../../shared/contract/entities/export';
import type { SftSelection } from '../../../../shared/contract/export.contract';
import type { ReadDb } from '../../db/sqlite';
import { attemptSetOf } from '../../trajectories/attempt-set';
import type { SftRecord } from '../sft';
import { laterDuplicateSql } from '../sft/duplicate-rule';
import { idHash, type Light } from '../sft/light-table';
import { closure, taskPrefix } from '../sft/preselect';
import type { Preselected } from '../sft/preselected';
import { type MetadataReason, metadataDetail, rowReason } from '../sft/verdicts';
import { bucketOf, fedRows, type RecordRow, workspaceRows } from './fed-rows';

type VerdictRow = RecordRow & { superseded_by: string | null; later_duplicate: number | null };

/**
 * Collections that replace others (§6.4), as [replaced, replacing] pairs over the supersede chains (C3 → C2 →
 * C1), built as the JS path builds them: only from collections that have a fed row (preselect.ts readLights).
 * A handful of collections, never a list per record.
 */
function replacementPairs(db: ReadDb, s: SftSelection): [string, string][] {
  const fed = fedRows(s);
  const direct = new Map<string, Set<string>>();
  const rows = db
    .prepare(
      `SELECT c.name, c.supersedes FROM collections c
       WHERE c.supersedes IS NOT NULL AND EXISTS (
         SELECT 1 FROM trajectories t LEFT JOIN curation_tasks b ON b.task_id = t.task_id
         WHERE t.collection = c.name ${fed.filter})`,
    )
    .all(...fed.params) as { name: string; supersedes: string }[];
  for (const r of rows) {
    const list = JSON.parse(r.supersedes) as string[];
    if (list.length) direct.set(r.name, new Set(list));
  }
  return [...closure(direct)].flatMap(([replacing, olds]) =>
    [...olds].map((old): [string, string] => [old, replacing]),
  );
}

/**
 * The replacement rule in SQL, for the row aliased `t`: the collection of the last fed row of its task among the
 * collections that replace t's (the JS path's "last one read wins"), NULL when none re-executed it. The pairs are
 * the query's first parameter (JSON); the fed rows of a task share its pool, so only the collections filter
 * is repeated here (its parameters follow the pairs).
 */
function supersededBySql(s: SftSelection): string {
  const only = s.collections?.length ? `AND r.collection IN (${s.collections.map(() => '?').join(', ')})` : '';
  return `(SELECT r.collection FROM trajectories r
    WHERE r.task_id = t.task_id ${only}
      AND r.collection IN (SELECT p.value ->> 1 FROM json_each(?) p WHERE p.value ->> 0 = t.collection)
    ORDER BY r.id DESC LIMIT 1)`;
}

/**
 * §6.5 steps 1–3 for the workspace, in SQL (issue 17): each page of rows carries its verdict's columns —
 * the collection that superseded it, the later duplicate of its (attempt set, task, trial) (duplicate-rule.ts) —
 * and steps 2–3 (curation, buckets, the pool's rule) are decided per row by the same function as the JS path
 * (verdicts.ts rowReason). Every pass runs the query again and keeps nothing per record: the export's memory
 * does not grow with the workspace. Same records, order, verdicts and texts as the LightTable path
 * (test/export/sql-selection.test.ts).
 */
export function sqlPreselected(
  db: ReadDb,
  s: SftSelection,
  o: SftOptions,
  pattern: RegExp,
  recordOf: (r: RecordRow) => SftRecord,
): Preselected {
  const fed = fedRows(s);
  const size = (
    db
      .prepare(
        `SELECT count(*) AS n FROM trajectories t LEFT JOIN curation_tasks b ON b.task_id = t.task_id
         WHERE 1 ${fed.filter}`,
      )
      .get(...fed.params) as { n: number }
  ).n;
  const pairs = replacementPairs(db, s);
  const superseded = pairs.length ? supersededBySql(s) : 'NULL';
  const rows = workspaceRows<VerdictRow>(
    db,
    s,
    `, ${superseded} AS superseded_by, ${laterDuplicateSql('t')} AS later_duplicate`,
    pairs.length ? [...(s.collections ?? []), JSON.stringify(pairs)] : [],
  );
  const admitted = new Set<string>(o.admittedBuckets);
  // Prefixes per task (a task's records share it): bounded, so a workspace of many tasks keeps no list of them.
  const prefixes = new Map<string, string>();
  const prefixOf = (task: string) => {
    let p = prefixes.get(task);
    if (p === undefined) {
      if (prefixes.size >= 10_000) prefixes.clear();
      prefixes.set(task, (p = taskPrefix(task, pattern)));
    }
    return p;
  };
  return {
    size,
    *scan(bodies) {
      let order = 0;
      for (const r of rows()) {
        const bucket = bucketOf(r);
        const reward = r.record_score;
        const pending = r.judge_pending === 1;
        const valid = r.valid === 1 && r.error === null;
        const reason: MetadataReason | null =
          r.superseded_by !== null
            ? 'superseded'
            : r.later_duplicate !== null
              ? 'duplicate'
              : rowReason({ override: r.include_override, bucket, valid, pool: r.pool, reward, pending }, admitted, o);
        const light = (): Light => ({
          id: String(r.id),
          order: at,
          taskId: r.task_id,
          trial: r.trial,
          collection: r.collection,
          attemptSet: attemptSetOf(r),
          reward,
          bucket,
          override: r.include_override,
          pool: r.pool,
          valid,
          pending,
          prefix: prefixOf(r.task_id),
        });
        const other = r.superseded_by ?? String(r.later_duplicate);
        const at = order++;
        yield {
          order: at,
          hash: idHash(String(r.id)),
          reason,
          light,
          detail: () => metadataDetail(reason!, { task: r.task_id, pool: r.pool, bucket, reward, other }, o),
          record: bodies ? recordOf(r) : null,
        };
      }
    },
  };
}
