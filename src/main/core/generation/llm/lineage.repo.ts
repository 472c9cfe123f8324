import { z } from 'zod';
import type { LineageRound as StoredRound } from '../../../../shared/contract/lineage.contract';
import { Verdict } from '../../../../shared/contract/validation.contract';
import { prepareCached, type ReadDb, type WriteDb } from '../../db/sqlite';
import type { LineageRound, LlmOutcome } from './generate-llm';
import { withoutKnownKeys as scrub } from '../../lib/secrets/known-keys';

type Row = {
  round: number;
  kind: LineageRound['kind'];
  prompt: string;
  answer: string | null;
  error: string | null;
  verdicts: string | null;
  diff: string;
  endpoint: string;
  model: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  latency_ms: number;
  attempts: number;
  outcome: LlmOutcome['status'];
  created_at: string;
};

const Messages = z.array(z.object({ role: z.string() }).loose());

export function lineageRepo(db: ReadDb) {
  return {
    /** A task's rounds in order, with the outcome of its candidate; [] for a task without lineage. */
    rounds(taskId: string): { outcome: LlmOutcome['status'] | null; rounds: StoredRound[] } {
      const rows = prepareCached(
        db,
        `SELECT round, kind, prompt, answer, error, verdicts, diff, endpoint, model, prompt_tokens, completion_tokens,
                latency_ms, attempts, outcome, created_at
         FROM task_lineage WHERE task_id = ? ORDER BY round`,
      ).all(taskId) as Row[];
      return {
        outcome: rows[0]?.outcome ?? null,
        rounds: rows.map(({ outcome: _o, ...r }) => ({
          ...r,
          prompt: Messages.parse(JSON.parse(r.prompt)),
          verdicts: r.verdicts === null ? null : Verdict.array().parse(JSON.parse(r.verdicts)),
        })),
      };
    },
  };
}

/** Written inside the caller's transaction (the generation job's batch); configured endpoint keys never are. */
export function lineageWriter(db: WriteDb) {
  return {
    /** Replaces the lineage of the outcome's task id (a regenerated candidate starts over). */
    save(o: LlmOutcome): void {
      prepareCached(db, 'DELETE FROM task_lineage WHERE task_id = ?').run(o.taskId);
      const ins = prepareCached(
        db,
        `INSERT INTO task_lineage (task_id, round, kind, prompt, answer, error, verdicts, diff, endpoint, model,
           prompt_tokens, completion_tokens, latency_ms, attempts, outcome, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const r of o.rounds)
        ins.run(
          o.taskId,
          r.round,
          r.kind,
          scrub(JSON.stringify(r.prompt)),
          r.answer === null ? null : scrub(r.answer),
          r.error === null ? null : scrub(r.error),
          r.verdicts ? JSON.stringify(r.verdicts) : null,
          r.diff,
          r.endpoint,
          r.model,
          r.prompt_tokens,
          r.completion_tokens,
          Math.round(r.latency_ms),
          r.attempts,
          o.status,
          r.created_at,
        );
    },
  };
}
