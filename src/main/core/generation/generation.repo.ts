import type { CoverageCell, SlotGenerationCounts, SlotRunReport } from '../../../shared/contract/generation.contract';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import type { Outcome } from './validated';

type Counts = Omit<SlotGenerationCounts, 'slotId' | 'target' | 'discardReasons'>;
const ZERO: Counts = { validTasks: 0, generated: 0, validFirstTime: 0, repaired: 0, discarded: 0 };

/** `slot_id IN (…)` over a JSON list (one statement whatever the list's length). */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

export function generationRepo(db: ReadDb) {
  return {
    /**
     * Per slot, SQL aggregates over the tasks linked to it and its candidates (indexes tasks_slot,
     * generation_candidates_outcome).
     */
    slotCounts(slotIds?: readonly number[]): SlotGenerationCounts[] {
      const ids = slotIds ? JSON.stringify([...new Set(slotIds)]) : null;
      const where = (col: string) => (ids ? `AND ${col} ${IN_IDS}` : '');
      const bind = ids ? [ids] : [];
      const slots = prepareCached(
        db,
        `SELECT id, target_count FROM coverage_slots WHERE 1 = 1 ${where('id')} ORDER BY id`,
      ).all(...bind) as { id: number; target_count: number }[];
      const counts = new Map<number, Counts>();
      const at = (id: number) => counts.get(id) ?? counts.set(id, { ...ZERO }).get(id)!;
      for (const r of prepareCached(
        db,
        `SELECT slot_id AS id, count(*) AS n FROM tasks WHERE slot_id IS NOT NULL AND validation_status = 'valid' ` +
          `${where('slot_id')} GROUP BY slot_id`,
      ).all(...bind) as { id: number; n: number }[])
        at(r.id).validTasks = r.n;
      for (const r of prepareCached(
        db,
        `SELECT slot_id AS id, count(*) AS n, sum(outcome = 'valid') AS v, sum(outcome = 'repaired') AS r, ` +
          `sum(outcome = 'discarded') AS d
         FROM generation_candidates WHERE 1 = 1 ${where('slot_id')} GROUP BY slot_id`,
      ).all(...bind) as { id: number; n: number; v: number; r: number; d: number }[])
        Object.assign(at(r.id), { generated: r.n, validFirstTime: r.v, repaired: r.r, discarded: r.d });
      const reasons = new Map<number, SlotGenerationCounts['discardReasons']>();
      for (const r of prepareCached(
        db,
        `SELECT slot_id AS id, coalesce(failed, 'generator') AS reason, count(*) AS n FROM generation_candidates
         WHERE outcome = 'discarded' ${where('slot_id')} GROUP BY slot_id, failed ORDER BY slot_id, n DESC, reason`,
      ).all(...bind) as { id: number; reason: string; n: number }[])
        (reasons.get(r.id) ?? reasons.set(r.id, []).get(r.id)!).push({ reason: r.reason, count: r.n });
      return slots.map((s) => ({
        slotId: s.id,
        target: s.target_count,
        ...(counts.get(s.id) ?? ZERO),
        discardReasons: reasons.get(s.id) ?? [],
      }));
    },
    /**
     * The heat maps' cells in one grouped scan of the plan (valid tasks joined per slot through
     * tasks_slot); the services × category cells are split per service here.
     */
    coverage(): { servicesByCategory: CoverageCell[]; difficultyByLanguage: CoverageCell[] } {
      const groups = prepareCached(
        db,
        `WITH v AS (SELECT slot_id, count(*) AS n FROM tasks WHERE slot_id IS NOT NULL AND validation_status = 'valid'
                    GROUP BY slot_id)
         SELECT s.services, s.category, s.difficulty, s.language, count(*) AS slots,
                sum(s.target_count) AS planned, sum(coalesce(v.n, 0)) AS valid
         FROM coverage_slots s LEFT JOIN v ON v.slot_id = s.id
         GROUP BY s.services, s.category, s.difficulty, s.language`,
      ).all() as {
        services: string;
        category: string;
        difficulty: string;
        language: string;
        slots: number;
        planned: number;
        valid: number;
      }[];
      const sc = new Map<string, CoverageCell>();
      const dl = new Map<string, CoverageCell>();
      const add = (m: Map<string, CoverageCell>, row: string, col: string, g: (typeof groups)[number]) => {
        const k = JSON.stringify([row, col]);
        const c = m.get(k) ?? m.set(k, { row, col, slots: 0, planned: 0, valid: 0 }).get(k)!;
        c.slots += g.slots;
        c.planned += g.planned;
        c.valid += g.valid;
      };
      for (const g of groups) {
        for (const svc of JSON.parse(g.services) as string[]) add(sc, svc, g.category, g);
        add(dl, g.difficulty, g.language, g);
      }
      return { servicesByCategory: [...sc.values()], difficultyByLanguage: [...dl.values()] };
    },
    /** Where a new run of this slot with this seed starts: after every index a run already used. */
    nextIndex(slotId: number, seed: number): number {
      return (
        prepareCached(
          db,
          'SELECT coalesce(max(idx) + 1, 0) AS n FROM generation_candidates WHERE slot_id = ? AND seed = ?',
        ).get(slotId, seed) as { n: number }
      ).n;
    },
    /** Outcomes of the candidates [from, to) of a slot's run. */
    outcomes(slotId: number, seed: number, from: number, to: number): Record<Outcome, number> {
      const out: Record<Outcome, number> = { valid: 0, repaired: 0, discarded: 0 };
      for (const r of prepareCached(
        db,
        'SELECT outcome, count(*) AS n FROM generation_candidates WHERE slot_id = ? AND seed = ? AND idx >= ? AND ' +
          'idx < ? GROUP BY outcome',
      ).all(slotId, seed, from, to) as { outcome: Outcome; n: number }[])
        out[r.outcome] = r.n;
      return out;
    },
    /** A slot's share of one run (candidates [from, to) of its seed): outcomes and discard reasons. */
    runReport(slotId: number, seed: number, from: number, to: number): SlotRunReport {
      const o = this.outcomes(slotId, seed, from, to);
      const reasons = prepareCached(
        db,
        `SELECT coalesce(failed, 'generator') AS reason, count(*) AS count FROM generation_candidates
         WHERE slot_id = ? AND seed = ? AND idx >= ? AND idx < ? AND outcome = 'discarded'
         GROUP BY failed ORDER BY count DESC, reason`,
      ).all(slotId, seed, from, to) as { reason: string; count: number }[];
      return {
        slotId,
        generated: o.valid + o.repaired + o.discarded,
        validFirstTime: o.valid,
        repaired: o.repaired,
        discarded: o.discarded,
        discardReasons: reasons,
      };
    },
    candidates(q: { slotId: number; outcome?: Outcome; limit: number; offset: number }) {
      const filter = q.outcome ? 'AND outcome = ?' : '';
      const args = q.outcome ? [q.slotId, q.outcome] : [q.slotId];
      const total = (
        prepareCached(db, `SELECT count(*) AS n FROM generation_candidates WHERE slot_id = ? ${filter}`).get(
          ...args,
        ) as {
          n: number;
        }
      ).n;
      const rows = prepareCached(
        db,
        `SELECT seed, idx, task_id, generator, outcome, failed, reason, rounds, created_at FROM generation_candidates
         WHERE slot_id = ? ${filter} ORDER BY created_at DESC, seed, idx LIMIT ? OFFSET ?`,
      ).all(...args, q.limit, q.offset) as {
        seed: number;
        idx: number;
        task_id: string;
        generator: string;
        outcome: Outcome;
        failed: string | null;
        reason: string;
        rounds: string;
        created_at: string;
      }[];
      return {
        total,
        rows: rows.map((r) => ({
          seed: r.seed,
          index: r.idx,
          taskId: r.task_id,
          generator: r.generator,
          outcome: r.outcome,
          failed: r.failed,
          reason: r.reason,
          rounds: JSON.parse(r.rounds) as unknown[],
          created_at: r.created_at,
        })),
      };
    },
  };
}

export type CandidateRow = {
  slotId: number;
  seed: number;
  index: number;
  taskId: string;
  generator: string;
  outcome: Outcome;
  failed: string | null;
  reason: string;
  /** Kept for discarded candidates only (an accepted task's rounds are its validation report). */
  rounds: readonly unknown[];
  now: string;
};

/** Written inside a job's batch transaction. */
export function generationWriter(db: WriteDb) {
  return {
    saveCandidate(c: CandidateRow): void {
      // A resumed batch may write a candidate again: the same position gets the same row.
      prepareCached(
        db,
        `INSERT OR REPLACE INTO generation_candidates (slot_id, seed, idx, task_id, generator, outcome, failed, ` +
          `reason, rounds, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        c.slotId,
        c.seed,
        c.index,
        c.taskId,
        c.generator,
        c.outcome,
        c.failed,
        c.reason,
        JSON.stringify(c.rounds),
        c.now,
      );
    },
  };
}
