import { prepareCached, type ReadDb, type WriteDb } from '../../db/sqlite';
import { withoutKnownKeys } from '../../lib/secrets/known-keys';
import type { Judge, JudgeVerdict } from './judge-check';
import type { JudgePassResult } from './judge-pass';
import { judgeKey } from './judge-prompt';

/**
 * The judge's answers, keyed by judgeKey(model, prompt) (table judge_cache, migration 0018): a re-grade of an
 * unchanged trajectory with unchanged checks finds every answer here and calls nothing. Only answers with a score
 * are stored: an unparseable one is asked again by the next pre-pass.
 */
export function cachedJudge(db: ReadDb, model: string): Judge {
  const get = prepareCached(db, 'SELECT answer, score, reasoning FROM judge_cache WHERE key = ?');
  return {
    model,
    verdict(req) {
      const key = judgeKey(model, req);
      const row = get.get(key) as { answer: string; score: number; reasoning: string } | undefined;
      return row ? { model, key, ...row } : null;
    },
  };
}

export const isCached = (db: ReadDb, key: string): boolean =>
  prepareCached(db, 'SELECT 1 FROM judge_cache WHERE key = ?').get(key) !== undefined;

/** Stores scored verdicts (inside the caller's write transaction); answers how many were new. */
export function storeVerdicts(db: WriteDb, verdicts: readonly JudgeVerdict[], now: string): number {
  const put = prepareCached(
    db,
    `INSERT INTO judge_cache (key, model, answer, score, reasoning, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO NOTHING`,
  );
  let n = 0;
  for (const v of verdicts)
    if (v.score !== null) n += put.run(v.key, v.model, v.answer, v.score, v.reasoning, now).changes;
  return n;
}

/**
 * The cache with a judge pass's answers over it, for grading before they are stored: each fresh scored verdict, and
 * for an endpoint failure a verdict without a score whose check stays pending and says why (never cached: asked
 * again next time). Answers and reasons are scrubbed of endpoint keys. `verdicts` are what the caller stores.
 */
export function withFreshVerdicts(
  cache: Judge,
  model: string,
  pass: JudgePassResult,
): { judge: Judge; verdicts: JudgeVerdict[] } {
  const fresh = new Map<string, JudgeVerdict>();
  for (const v of pass.verdicts)
    fresh.set(v.key, { ...v, answer: withoutKnownKeys(v.answer), reasoning: withoutKnownKeys(v.reasoning) });
  for (const f of pass.failed)
    if (!fresh.has(f.key))
      fresh.set(f.key, {
        model,
        key: f.key,
        answer: '',
        score: null,
        reasoning: '',
        error: withoutKnownKeys(f.problem),
      });
  const judge: Judge = { model, verdict: (req) => fresh.get(judgeKey(model, req)) ?? cache.verdict(req) };
  return { judge, verdicts: [...fresh.values()] };
}
