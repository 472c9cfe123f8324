import { prepareCached, type ReadDb } from '../db/sqlite';
import { osUser } from '../curation/batches';
import { notFound } from '../lib/errors';
import type { HandlerMap } from '../lib/handler-types';
import type { ScoreBasis } from '../trajectories/score-basis';

const COUNTS = `SELECT c.name AS collection, c.score_basis AS basis, count(t.id) AS trajectories,
    coalesce(sum(t.source_reward IS NOT NULL OR t.source_completion IS NOT NULL OR t.source_success IS NOT NULL), 0)
      AS recorded,
    coalesce(sum(t.graded = 1 AND t.score IS NOT NULL), 0) AS graded,
    coalesce(sum(t.disagrees = 1), 0) AS disagreements,
    coalesce(sum(t.app_pending > 0), 0) AS judgePending
  FROM collections c LEFT JOIN trajectories t ON t.collection = c.name
  WHERE @c IS NULL OR c.name = @c GROUP BY c.name ORDER BY c.name`;

type Counts = {
  collection: string;
  basis: ScoreBasis;
  trajectories: number;
  recorded: number;
  graded: number;
  disagreements: number;
  judgePending: number;
};

/** Per collection: its score basis, how many rows each side has, disagreements and judge-pending rows. */
export function collectionScores(db: ReadDb, collection?: string): Counts[] {
  return prepareCached(db, COUNTS).all({ c: collection ?? null }) as Counts[];
}

const bool = (v: number | null) => (v === null ? null : v === 1);

export const scoreBasisHandlers = {
  'grading.scoreBasis': (input, ctx) => {
    if (input.collection !== undefined && !collectionScores(ctx.db, input.collection).length)
      throw notFound(`collection ${input.collection}`);
    const log = prepareCached(
      ctx.db,
      `SELECT id, collection, before, after, who, at, reason FROM score_basis_log
       WHERE @c IS NULL OR collection = @c ORDER BY id`,
    ).all({ c: input.collection ?? null }) as {
      id: number;
      collection: string;
      before: ScoreBasis;
      after: ScoreBasis;
      who: string;
      at: string;
      reason: string;
    }[];
    return { collections: collectionScores(ctx.db, input.collection), log };
  },
  'grading.setScoreBasis': (input, ctx) => {
    const row = prepareCached(ctx.db, 'SELECT score_basis FROM collections WHERE name = ?').get(input.collection) as
      | { score_basis: ScoreBasis }
      | undefined;
    if (!row) throw notFound(`collection ${input.collection}`);
    const before = row.score_basis;
    if (before === input.basis) return { before, after: before, tasks: 0 };
    prepareCached(ctx.db, 'UPDATE collections SET score_basis = ?, updated_at = ? WHERE name = ?').run(
      input.basis,
      ctx.now(),
      input.collection,
    );
    prepareCached(
      ctx.db,
      'INSERT INTO score_basis_log (collection, before, after, who, at, reason) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(input.collection, before, input.basis, osUser(), ctx.now(), input.reason);
    // Its tasks' statistics and suggestions follow before this commits (curation/settle.ts reads curation_dirty).
    const tasks = prepareCached(
      ctx.db,
      'INSERT OR IGNORE INTO curation_dirty (task_id) SELECT DISTINCT task_id FROM trajectories WHERE collection = ?',
    ).run(input.collection).changes;
    ctx.touch('collections');
    ctx.touch('score_basis_log');
    return { before, after: input.basis, tasks };
  },
  'grading.disagreements': (input, ctx) => {
    const where = 'disagrees = 1 AND (@c IS NULL OR collection = @c)';
    const total = (
      prepareCached(ctx.db, `SELECT count(*) AS n FROM trajectories WHERE ${where}`).get({
        c: input.collection ?? null,
      }) as {
        n: number;
      }
    ).n;
    const rows = prepareCached(
      ctx.db,
      `SELECT id, collection, task_id, trial, source_reward, source_completion, source_success, score, completion,
         passed FROM trajectories WHERE ${where} ORDER BY collection, task_id, trial, id LIMIT @limit`,
    ).all({ c: input.collection ?? null, limit: input.limit }) as {
      id: number;
      collection: string;
      task_id: string;
      trial: number;
      source_reward: number | null;
      source_completion: number | null;
      source_success: number | null;
      score: number | null;
      completion: number | null;
      passed: number | null;
    }[];
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        collection: r.collection,
        task_id: r.task_id,
        trial: r.trial,
        recorded_score: r.source_reward,
        recorded_completion: r.source_completion,
        recorded_passed: bool(r.source_success),
        app_score: r.score,
        app_completion: r.completion,
        app_passed: bool(r.passed),
      })),
    };
  },
} satisfies Partial<HandlerMap>;
