import type { CurationState } from '../../../../shared/contract/export.contract';
import type { ReadDb } from '../../db/sqlite';

/**
 * How much of the workspace curation has decided. An SFT export admits KEEP and TRIVIAL by default;
 * with no bucket and no include override anywhere it would select nothing, and people must be told
 * why (and offered to export the uncurated trajectories) rather than get an empty folder.
 */
export function curationState(db: ReadDb): CurationState {
  const totals = db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(include_override = 'include'), 0) AS included,
         coalesce(sum(include_override = 'exclude'), 0) AS excluded,
         coalesce(sum(superseded), 0) AS superseded
       FROM trajectories`,
    )
    .get() as { n: number; included: number; excluded: number; superseded: number };
  // A trajectory's bucket is its task's (curation INTERFACE): rows counted per task, then the task's bucket.
  const byBucket: Record<string, number> = {};
  let bucketed = 0;
  for (const r of db
    .prepare(
      `SELECT coalesce(c.bucket, 'UNBUCKETED') AS b, sum(g.n) AS n
       FROM (SELECT task_id, count(*) AS n FROM trajectories GROUP BY task_id) g
         LEFT JOIN curation_tasks c ON c.task_id = g.task_id
       GROUP BY 1`,
    )
    .all() as { b: string; n: number }[]) {
    byBucket[r.b] = r.n;
    if (r.b !== 'UNBUCKETED') bucketed += r.n;
  }
  const nothingCurated = totals.n > 0 && bucketed === 0 && totals.included === 0;
  const notice =
    totals.n === 0
      ? 'the workspace holds no trajectories: import some (coworkenv trajectories import) or run tasks first'
      : nothingCurated
        ? `nothing is curated yet: none of the ${totals.n} trajectories has a bucket or an include override, so the ` +
          'default selection (KEEP, TRIVIAL) is empty. Curate them first, or export the uncurated trajectories ' +
          '(--all-uncurated; "Include uncurated" on the Export page)'
        : null;
  return {
    trajectories: totals.n,
    bucketed,
    included: totals.included,
    excluded: totals.excluded,
    superseded: totals.superseded,
    byBucket,
    nothingCurated,
    notice,
  };
}
