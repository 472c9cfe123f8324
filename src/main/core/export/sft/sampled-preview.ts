/**
 * The Export page's preview must stay live on 100,000 trajectories, and reading a body costs ~2 ms; the
 * steps after the metadata ones (converter, TRIVIAL prefix, dialect, lint) are therefore estimated from a
 * sample of the records that reach them. The metadata steps stay exact; the export itself reads every body.
 */
export type Sample = {
  /** The chosen records, by their order in the selection. */
  ids: Set<number>;
  examined: number;
  of: number;
  /** Per prefix, the TRIVIAL records (not force-included) past the metadata steps: the prefix rule's groups. */
  trivialGroups: number[];
  trivialExamined: number;
};

/** The hash bound that keeps about `max` of `past` records (a share of the 32-bit hash range). */
const bound = (max: number, past: number) => Math.floor((max / past) * 2 ** 32);

/**
 * About `max` of the records past the metadata steps, chosen by a hash of the record id (light-table.ts idHash:
 * deterministic and unrelated to storage order, which follows runs trial by trial), told one record at a time in
 * record order. It keeps only the records whose hash is under the bound for the records seen so far — a bound
 * that only falls — so it holds about `max` records, never one entry per record (issue 17).
 */
export class Sampler {
  private past = 0;
  private first: { order: number; trivial: boolean } | null = null;
  private kept: { order: number; hash: number; trivial: boolean }[] = [];
  private readonly groups = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A record past the metadata steps; `trivial`: TRIVIAL and not force-included (the prefix rule's records). */
  see(order: number, hash: number, trivial: boolean, prefix: string): void {
    this.past++;
    this.first ??= { order, trivial };
    if (trivial) this.groups.set(prefix, (this.groups.get(prefix) ?? 0) + 1);
    const below = bound(this.max, this.past);
    if (hash < below) this.kept.push({ order, hash, trivial });
    if (this.kept.length > 2 * this.max + 64) this.kept = this.kept.filter((k) => k.hash < below);
  }

  /** The sample; null when every record past the metadata steps fits in `max`. */
  finish(): Sample | null {
    if (this.past <= this.max) return null;
    const below = bound(this.max, this.past);
    const s: Sample = { ids: new Set(), examined: 0, of: this.past, trivialGroups: [], trivialExamined: 0 };
    for (const k of this.kept)
      if (k.hash < below) {
        s.ids.add(k.order);
        s.examined++;
        if (k.trivial) s.trivialExamined++;
      }
    if (!s.examined) {
      // A tiny budget on a large selection can miss every record: take the first one.
      s.ids.add(this.first!.order);
      s.examined = 1;
      if (this.first!.trivial) s.trivialExamined = 1;
    }
    s.trivialGroups = [...this.groups.values()];
    return s;
  }
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
