import { Verdict, type ValidationRound } from '../../../shared/contract/validation.contract';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import type { Round } from './validate';

type Status = 'valid' | 'invalid' | 'unvalidated';
const VerdictList = Verdict.array();

export function validationRepo(db: ReadDb) {
  return {
    status(taskId: string): Status | undefined {
      return (
        prepareCached(db, 'SELECT validation_status AS s FROM tasks WHERE task_id = ?').get(taskId) as
          | { s: Status }
          | undefined
      )?.s;
    },
    rounds(taskId: string): ValidationRound[] {
      const rows = prepareCached(
        db,
        'SELECT task_version, round, valid, verdicts, diff, created_at FROM validation_reports WHERE task_id = ? ' +
          'ORDER BY task_version, round',
      ).all(taskId) as {
        task_version: number;
        round: number;
        valid: number;
        verdicts: string;
        diff: string;
        created_at: string;
      }[];
      return rows.map((r) => ({
        version: r.task_version,
        round: r.round,
        valid: r.valid === 1,
        verdicts: VerdictList.parse(JSON.parse(r.verdicts)),
        diff: r.diff,
        created_at: r.created_at,
      }));
    },
    /** Every task id, in id order (validate all). */
    allTaskIds(): string[] {
      return (prepareCached(db, 'SELECT task_id FROM tasks ORDER BY task_id').all() as { task_id: string }[]).map(
        (r) => r.task_id,
      );
    },
    existing(ids: readonly string[]): Set<string> {
      const found = new Set<string>();
      const q = prepareCached(db, 'SELECT 1 FROM tasks WHERE task_id = ?');
      for (const id of ids) if (q.get(id)) found.add(id);
      return found;
    },
  };
}

/** Reports are written inside the caller's transaction (a job's batch). */
export function validationWriter(db: WriteDb) {
  return {
    /**
     * Replace the report of a task's current version with these rounds and set its grid status from the last one
     * (inside the caller's transaction). Answers false — and saves nothing — when the task is gone
     * or its content is no longer `hash` (edited while it was being validated: it stays unvalidated).
     */
    save(taskId: string, rounds: readonly Round[], hash: string): boolean {
      const last = rounds.at(-1);
      if (!last) return false;
      const failed = last.verdicts.find((v) => v.status === 'fail')?.validator ?? null;
      const changed = prepareCached(
        db,
        'UPDATE tasks SET validation_status = ?, failed_validator = ? WHERE task_id = ? AND content_hash = ?',
      ).run(last.valid ? 'valid' : 'invalid', failed, taskId, hash).changes;
      if (!changed) return false;
      // Rounds of earlier versions stay: the task's history shows how each version fared.
      const { version } = prepareCached(db, 'SELECT version FROM tasks WHERE task_id = ?').get(taskId) as {
        version: number;
      };
      prepareCached(db, 'DELETE FROM validation_reports WHERE task_id = ? AND task_version = ?').run(taskId, version);
      const ins = prepareCached(
        db,
        'INSERT INTO validation_reports (task_id, task_version, round, valid, verdicts, diff, candidate, created_at) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      for (const r of rounds)
        ins.run(
          taskId,
          version,
          r.round,
          r.valid ? 1 : 0,
          JSON.stringify(r.verdicts),
          r.diff,
          JSON.stringify(r.candidate ?? null),
          r.created_at,
        );
      return true;
    },
  };
}
