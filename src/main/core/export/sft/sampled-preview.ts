import type { LightTable } from './light-table';
import type { Verdicts } from './verdicts';

/**
 * The Export page's preview must stay live on 100,000 trajectories, and reading a body costs ~2 ms; the
 * steps after the metadata ones (converter, TRIVIAL prefix, dialect, lint) are therefore estimated from a
 * sample of the records that reach them. The metadata steps stay exact; the export itself reads every body.
 */
export type Sample = {
  /** The chosen records, by their number in the LightTable. */
  ids: Set<number>;
  examined: number;
  of: number;
  /** Per prefix, the TRIVIAL records (not force-included) past the metadata steps: the prefix rule's groups. */
  trivialGroups: number[];
  trivialExamined: number;
};

const trivial = (t: LightTable, i: number) => t.bucketOf(i) === 'TRIVIAL' && t.overrideOf(i) !== 'include';

/**
 * About `max` of the records past the metadata steps, chosen by a hash of the record id (deterministic and
 * unrelated to storage order, which follows runs trial by trial); null when all of them fit in `max`.
 */
export function sampleRecords(t: LightTable, verdicts: Verdicts, max: number) {
  let past = 0;
  let firstPast = -1;
  for (let i = 0; i < t.size; i++)
    if (!verdicts.has(i)) {
      past++;
      if (firstPast === -1) firstPast = i;
    }
  if (past <= max) return null;
  const below = Math.floor((max / past) * 2 ** 32);
  const groups = new Map<number, number>();
  const s: Sample = { ids: new Set(), examined: 0, of: past, trivialGroups: [], trivialExamined: 0 };
  for (let i = 0; i < t.size; i++) {
    if (verdicts.has(i)) continue;
    // The hash of the record id (light-table.ts idHash), computed when the table was filled.
    const chosen = t.hashOf(i) < below;
    if (chosen) {
      s.ids.add(i);
      s.examined++;
    }
    if (!trivial(t, i)) continue;
    groups.set(t.prefixKey(i), (groups.get(t.prefixKey(i)) ?? 0) + 1);
    if (chosen) s.trivialExamined++;
  }
  if (!s.examined) {
    // A tiny budget on a large selection can miss every record: take the first one.
    s.ids.add(firstPast);
    s.examined = 1;
    if (trivial(t, firstPast)) s.trivialExamined = 1;
  }
  s.trivialGroups = [...groups.values()];
  return s;
}

/**
 * Records the TRIVIAL rule would set aside in the whole selection: its TRIVIAL records (counted exactly)
 * times q, the sample's rate of them that qualify, minus one winner per prefix that has any, where a
 * prefix of n records has one with probability 1 − (1 − q)^n.
 */
export function trivialTakenEstimate(s: Sample, qualifyingInSample: number): number {
  if (!s.trivialExamined) return 0;
  const q = qualifyingInSample / s.trivialExamined;
  let records = 0;
  let winners = 0;
  for (const n of s.trivialGroups) {
    records += n;
    winners += 1 - (1 - q) ** n;
  }
  return Math.max(0, q * records - winners);
}
