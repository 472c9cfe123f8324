import type { ReadDb } from '../db/sqlite';
import type { JobResult } from '../jobs/job-types';
import { generationRepo } from './generation.repo';
import type { GenSlot } from './procedural/families/family';

/** A slot's share of a run: candidates at indexes start … start+count−1 (the slot is a snapshot taken at start). */
export type GenerationUnit = { slot: GenSlot & { id: number; notes?: string }; start: number; count: number };

/** Resolved by generation.run's handler; a resumed job re-reads it, so it makes exactly the same candidates. */
export type GenerationJobInput = {
  generator: 'procedural' | 'llm';
  seed: number;
  batchSize: number;
  units: GenerationUnit[];
  problems: string[];
  /** llm: the endpoint's name (its row is read in the worker; its key comes from ctx.keys) and requests in flight. */
  endpoint?: string;
  concurrency?: number;
};

export type GenerationResult = JobResult<'generation.run'>;

/** Candidate n of the run → its unit and index (binary search over the units' running totals). */
export function locator(units: GenerationUnit[]) {
  const ends: number[] = [];
  let sum = 0;
  for (const u of units) ends.push((sum += u.count));
  return (n: number) => {
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! > n) hi = mid;
      else lo = mid + 1;
    }
    const u = units[lo]!;
    return { unit: u, index: u.start + n - (ends[lo]! - u.count) };
  };
}

export const totalCandidates = (input: GenerationJobInput) => input.units.reduce((s, u) => s + u.count, 0);

/** The run's result, counted from the workspace: a resumed job did not see the batches committed before it. */
export function runSummary(db: ReadDb, input: GenerationJobInput, stopped: string | null = null): GenerationResult {
  const repo = generationRepo(db);
  const perSlot = input.units.map((u) => repo.runReport(u.slot.id, input.seed, u.start, u.start + u.count));
  const sum = (k: 'validFirstTime' | 'repaired' | 'discarded') => perSlot.reduce((n, s) => n + s[k], 0);
  return {
    slots: input.units.length,
    candidates: perSlot.reduce((n, s) => n + s.generated, 0),
    validFirstTime: sum('validFirstTime'),
    repaired: sum('repaired'),
    discarded: sum('discarded'),
    problems: input.problems,
    perSlot,
    stopped,
  };
}
