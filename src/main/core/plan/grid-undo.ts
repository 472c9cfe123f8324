import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { jobsRepo } from '../jobs/jobs.repo';
import { AppError, notFound } from '../lib/errors';

/** Inside a grid job's batch transaction: remember the ids it just made (migration 0027). */
export function recordBatch(db: WriteDb, jobId: string, firstId: number, lastId: number, createdAt: string): void {
  prepareCached(
    db,
    'INSERT OR REPLACE INTO grid_job_batches (job_id, first_id, last_id, created_at) VALUES (?, ?, ?, ?)',
  ).run(jobId, firstId, lastId, createdAt);
}

/**
 * The job's slots that are still its own: in a batch's id run and with the batch's creation time
 * (a slot that later reused a deleted id has another). A subquery, so a 1,000,000-slot grid is
 * never held in memory.
 */
const OWN = `SELECT s.id FROM grid_job_batches b
  JOIN coverage_slots s ON s.id BETWEEN b.first_id AND b.last_id AND s.created_at = b.created_at
  WHERE b.job_id = ?`;

const count = (db: ReadDb, sql: string, jobId: string) => (prepareCached(db, sql).get(jobId) as { n: number }).n;

/**
 * Undo of plan.generateGrid: deletes the slots the job made, and only those. Refuses (deleting
 * nothing) while the job still runs, and when tasks or generation candidates were made for its
 * slots since, or slots were edited since — deleting them would drop that work silently.
 */
export function undoGrid(db: WriteDb, jobId: string): { deleted: number } {
  const job = jobsRepo(db).get(jobId);
  if (job?.name !== 'plan.generateGrid') throw notFound(`grid-generation job ${jobId}`);
  if (job.state === 'queued' || job.state === 'running')
    throw new AppError('CONFLICT', `the grid job ${jobId.slice(0, 8)} is still ${job.state}: cancel it first`);
  const slots = count(db, `SELECT count(*) AS n FROM (${OWN})`, jobId);
  if (!slots) throw new AppError('CONFLICT', `the grid job ${jobId.slice(0, 8)} has no slots left to remove`);
  const tasks = count(db, `SELECT count(*) AS n FROM tasks WHERE slot_id IN (${OWN})`, jobId);
  const candidates = count(db, `SELECT count(*) AS n FROM generation_candidates WHERE slot_id IN (${OWN})`, jobId);
  if (tasks || candidates)
    throw new AppError(
      'CONFLICT',
      `tasks were generated for the grid's slots since (${tasks} task(s), ${candidates} candidate(s)): ` +
        'nothing was removed; delete those slots by filter if you mean it',
    );
  const edited = count(
    db,
    `SELECT count(*) AS n FROM coverage_slots WHERE id IN (${OWN}) AND updated_at <> created_at`,
    jobId,
  );
  if (edited)
    throw new AppError(
      'CONFLICT',
      `${edited} of the grid's ${slots} slot(s) were edited since: nothing was removed; delete them by filter if ` +
        'you mean it',
    );
  prepareCached(db, `DELETE FROM coverage_slots WHERE id IN (${OWN})`).run(jobId);
  prepareCached(db, 'DELETE FROM grid_job_batches WHERE job_id = ?').run(jobId);
  return { deleted: slots };
}
