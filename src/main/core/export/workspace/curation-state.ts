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
      `SELECT count(*) AS n, count(bucket) AS bucketed,
         coalesce(sum(include_override = 'include'), 0) AS included,
         coalesce(sum(include_override = 'exclude'), 0) AS excluded,
         coalesce(sum(superseded), 0) AS superseded
       FROM trajectories`,
    )
    .get() as { n: number; bucketed: number; included: number; excluded: number; superseded: number };
  const byBucket: Record<string, number> = {};
  for (const r of db
    .prepare("SELECT coalesce(bucket, 'UNBUCKETED') AS b, count(*) AS n FROM trajectories GROUP BY 1")
    .all() as { b: string; n: number }[])
    byBucket[r.b] = r.n;
  const nothingCurated = totals.n > 0 && totals.bucketed === 0 && totals.included === 0;
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
    bucketed: totals.bucketed,
    included: totals.included,
    excluded: totals.excluded,
    superseded: totals.superseded,
    byBucket,
    nothingCurated,
    notice,
  };
}
