import type { ManifestScoreBasis, SftLineage } from '../../../../shared/contract/entities/export';

/**
 * The manifest's per-collection account of scores (issue 18 item 3): which basis each collection's records were
 * selected on, and how many exported records the recorded score and the app's grade disagree on — so a trainer
 * can tell the data was chosen by one side while the other said otherwise. One entry per collection, not per record.
 */
export class ScoreBasisTally {
  private readonly byCollection = new Map<string | null, ManifestScoreBasis>();

  add(collection: string | null, lineage: SftLineage | undefined): void {
    let e = this.byCollection.get(collection);
    if (!e)
      this.byCollection.set(
        collection,
        (e = { collection, basis: lineage?.scoreBasis ?? null, exported: 0, disagreements: 0 }),
      );
    e.exported++;
    if (lineage?.disagrees) e.disagreements++;
  }

  /** In collection order; absent (undefined) when no record named a basis (records from outside a workspace). */
  list(): ManifestScoreBasis[] | undefined {
    const all = [...this.byCollection.values()];
    if (!all.some((e) => e.basis !== null)) return undefined;
    return all.sort((a, b) => (a.collection ?? '').localeCompare(b.collection ?? ''));
  }
}
