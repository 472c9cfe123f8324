import type { Light } from './preselect';

/**
 * The Export page's preview must stay live on 100,000 trajectories, and reading a body costs ~2 ms; the
 * steps after the metadata ones (converter, TRIVIAL prefix, dialect, lint) are therefore estimated from a
 * sample of the records that reach them. The metadata steps stay exact; the export itself reads every body.
 */
export type Sample = {
  ids: Set<string>;
  examined: number;
  of: number;
  /** Per prefix, the TRIVIAL records (not force-included) past the metadata steps: the prefix rule's groups. */
  trivialGroups: number[];
  trivialExamined: number;
};

const trivial = (l: Light) => l.bucket === 'TRIVIAL' && l.override !== 'include';

/**
 * About `max` of the records past the metadata steps, chosen by a hash of the record id (deterministic and
 * unrelated to storage order, which follows runs trial by trial); null when all of them fit in `max`.
 */
export function sampleRecords(lights: readonly Light[], verdicts: ReadonlyMap<string, unknown>, max: number) {
  const past = lights.filter((l) => !verdicts.has(l.id));
  if (past.length <= max) return null;
  const below = Math.floor((max / past.length) * 2 ** 32);
  const groups = new Map<string, number>();
  const s: Sample = { ids: new Set(), examined: 0, of: past.length, trivialGroups: [], trivialExamined: 0 };
  for (const l of past) {
    const chosen = fnv1a(l.id) < below;
    if (chosen) {
      s.ids.add(l.id);
      s.examined++;
    }
    if (!trivial(l)) continue;
    groups.set(l.prefix, (groups.get(l.prefix) ?? 0) + 1);
    if (chosen) s.trivialExamined++;
  }
  if (!s.examined) {
    // A tiny budget on a large selection can miss every record: take the first one.
    s.ids.add(past[0]!.id);
    s.examined = 1;
    if (trivial(past[0]!)) s.trivialExamined = 1;
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

/**
 * FNV-1a then MurmurHash3's finaliser, 32 bits: a cheap stable hash for sampling (not for security). The
 * finaliser spreads short, similar ids (`1`, `2`, … or `r0-1`) over the whole range.
 */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
