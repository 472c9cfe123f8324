import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import type { ModelClient } from '../../agents/model-client';
import { prepareCached, type WriteDb } from '../../db/sqlite';
import { modelClientFor } from '../../endpoints/client-for';
import { endpointsRepo } from '../../endpoints/endpoints.repo';
import { JobCancelled, type JobContext } from '../../jobs/job-definition';
import { storeTaskSpec } from '../../tasks/spec-store';
import type { Round } from '../../validation/validate';
import { validationWriter } from '../../validation/validation.repo';
import { generationWriter } from '../generation.repo';
import {
  type GenerationJobInput,
  type GenerationResult,
  type GenerationUnit,
  locator,
  runSummary,
  totalCandidates,
} from '../run-shape';
import { generateWithLlm, type LlmOutcome } from './generate-llm';
import { lineageWriter } from './lineage.repo';

const TABLES = ['tasks', 'validation_reports', 'generation_candidates', 'task_lineage'];

type Finished = { unit: GenerationUnit; outcome: LlmOutcome; task: TaskSpec | null };

/** What the candidates table groups a discard by: the validator that failed the repair, else the request's failure. */
function discardKey(o: LlmOutcome): string | null {
  if (o.status !== 'discarded') return null;
  if (o.reasonKind !== 'invalid_after_repair') return o.reasonKind ?? 'request_failed';
  const last = o.rounds.findLast((r) => r.verdicts);
  return last?.verdicts?.find((v) => v.status === 'fail')?.validator ?? 'invalid_after_repair';
}

/** The lineage rounds that validated a candidate, as the task's validation report keeps them. */
const validationRounds = (o: LlmOutcome): Round[] =>
  o.rounds
    .filter((r) => r.verdicts)
    .map((r, i) => ({
      round: i + 1,
      valid: !r.verdicts!.some((v) => v.status === 'fail'),
      verdicts: r.verdicts!,
      diff: r.diff,
      created_at: r.created_at,
      candidate: undefined,
    }));

/** Inside the batch transaction: the task (when accepted), its validation report, its lineage, the outcome row. */
function commit(db: WriteDb, input: GenerationJobInput, f: Finished, now: string): void {
  if (!prepareCached(db, 'SELECT 1 FROM coverage_slots WHERE id = ?').get(f.unit.slot.id)) return;
  const { outcome: o, task } = f;
  if (task) {
    storeTaskSpec(db, task, {
      origin: 'generated',
      now,
      reason: `generated (llm, endpoint ${input.endpoint}, seed ${input.seed}, ${o.status})`,
    });
    const { hash } = prepareCached(db, 'SELECT content_hash AS hash FROM tasks WHERE task_id = ?').get(o.taskId) as {
      hash: string;
    };
    validationWriter(db).save(o.taskId, validationRounds(o), hash);
  }
  lineageWriter(db).save(o);
  generationWriter(db).saveCandidate({
    slotId: f.unit.slot.id,
    seed: input.seed,
    index: o.index,
    taskId: o.taskId,
    generator: 'llm',
    outcome: o.status,
    failed: discardKey(o),
    reason: o.reason ?? '',
    rounds: [], // every request, answer and verdict is the candidate's lineage (tasks.lineage)
    now,
  });
}

/**
 * generation.run with the llm generator: `concurrency` candidates in flight at once, each one
 * generateWithLlm call (ask → parse → validate → one repair; not JSON, timeouts and failed
 * requests retried once; the client itself retries 429/5xx honouring Retry-After). Finished
 * candidates are committed in index order, so the job's cursor is always a prefix and a resumed
 * job redoes only what was not committed. Cancelling aborts the requests in flight at once.
 * A failure every request would repeat (no key, key refused, unknown model) stops the run: the
 * result says why in `stopped`.
 */
export async function runLlmGeneration(ctx: JobContext, input: GenerationJobInput): Promise<GenerationResult> {
  const total = totalCandidates(input);
  const at = locator(input.units);
  const row = input.endpoint ? endpointsRepo(ctx.db).get(input.endpoint) : undefined;
  if (!row) throw new Error(`endpoint "${input.endpoint ?? ''}" no longer exists; add it again and resume the job`);
  let client: ModelClient;
  try {
    client = modelClientFor(row, ctx.keys);
  } catch (err) {
    return runSummary(ctx.db, input, (err as Error).message);
  }

  let next = ctx.resumeFrom;
  let committed = ctx.resumeFrom;
  let stopped: string | null = null;
  let failure: unknown = null;
  const finished = new Map<number, Finished | null>();
  const counts = { valid: 0, repaired: 0, discarded: 0 };

  /** Commits the finished candidates that directly follow the cursor (one transaction). */
  const flush = () => {
    const ready: Finished[] = [];
    let to = committed;
    for (let f = finished.get(to); f; f = finished.get(to)) ready.push(f), finished.delete(to++);
    if (!ready.length) return;
    for (const f of ready) counts[f.outcome.status]++;
    ctx.commitBatch(
      (db) => {
        const now = ctx.now();
        for (const f of ready) commit(db, input, f, now);
      },
      to,
      `${to} of ${total} candidates (${counts.valid} valid, ${counts.repaired} repaired, ` +
        `${counts.discarded} discarded)`,
      TABLES,
    );
    committed = to;
  };

  const lane = async () => {
    while (!stopped && !failure && !ctx.signal.aborted && next < total) {
      const n = next++;
      const { unit, index } = at(n);
      const report = await generateWithLlm(unit.slot, {
        client,
        seed: input.seed,
        count: 1,
        start: index,
        signal: ctx.signal,
        now: () => new Date(ctx.now()),
      });
      const outcome = report.outcomes[0];
      // A cancelled candidate has no outcome: the cursor stops before it.
      finished.set(n, outcome ? { unit, outcome, task: report.tasks[0] ?? null } : null);
      if (report.stopped && report.stopped !== 'cancelled') stopped ??= report.stopped;
      if (failure) continue;
      try {
        flush();
      } catch (err) {
        failure = err; // JobCancelled from commitBatch, or a write error: the other lanes stop too
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency ?? 4, total)) }, lane));
  if (failure) throw failure;
  if (ctx.signal.aborted) throw new JobCancelled();
  return runSummary(ctx.db, input, stopped);
}
