import type { RunResult } from '../../../shared/contract/entities/run';
import type { RunAgent } from '../../../shared/contract/runs.contract';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { type Episode, runEpisode } from '../agents/agent-loop';
import { JobCancelled, type JobContext, type JobDefinition } from '../jobs/job-definition';
import { storedTaskSpec, type StoredFixture } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { runsWriter } from '../trajectories/runs.repo';
import { supersession } from '../trajectories/supersede';
import { trajectoriesWriter } from '../trajectories/trajectories-writer.repo';
import type { PreparedRow } from '../trajectories/import/prepare';
import { episodeRow } from './episode-row';
import { runParties, type RunUserChoice } from './run-parties';
import { agentRunsRepo, agentRunsWriter } from './run.repo';

/** Resolved by runs.start's handler; a resumed job re-reads it, so it runs exactly the same pairs. */
export type RunJobInput = {
  name: string;
  taskIds: string[];
  agent: RunAgent;
  user: RunUserChoice;
  labels: {
    agent: { kind: 'model' | 'reference'; label: string; endpoint: string | null; model: string | null };
    user: string;
  };
  trials: number;
  concurrency: number;
  collection: string;
  maxAttempts: number;
  selection: unknown;
};

const TABLES = ['trajectories', 'runs'];
/** A batch commits at this many finished pairs, or this long after the last one… */
const FLUSH_ROWS = 256;
const FLUSH_MS = 100;
/**
 * …and a pair that finished alone is stored this soon (model runs: "as it finishes"). The reference
 * agent ends an episode every millisecond or so: its pairs wait for a full batch, since every commit
 * also recomputes the curation statistics of the batch's tasks (a 20 ms delay made batches of ~40).
 */
const STORE_DELAY_MS = 20;
/** Episodes of the reference agent never wait: give timers (cancel polling, stores) a turn this often. */
const YIELD_MS = 40;

type Pair = { taskId: string; trial: number };
type Finished = { row: PreparedRow; replaces: number | null; passed: boolean; errored: boolean; tokens: number };
type Failed = Pair & { message: string };

const key = (taskId: string, trial: number) => `${taskId}\u0000${trial}`;
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');

/**
 * A run: every task × trial pair not yet stored, `concurrency` episodes at a time, each in a fresh
 * environment of its task, graded, and committed with the run's counters shortly after it ends.
 * Killed at any point, a resumed job reads which pairs are stored and runs the others (and those
 * whose stored run errored, replacing them). A cancel aborts model calls at once; what finished
 * but was not yet committed is run again on resume.
 */
export const runJob: JobDefinition<RunJobInput, RunResult> = {
  total: (input) => input.taskIds.length * input.trials,
  async run(ctx, input) {
    const total = input.taskIds.length * input.trials;
    const { runId, have } = startRun(ctx, input);
    const pending: Pair[] = [];
    for (let trial = 0; trial < input.trials; trial++)
      for (const taskId of input.taskIds)
        if (have.get(key(taskId, trial))?.valid !== 1) pending.push({ taskId, trial });
    const { agent, user } = runParties(ctx.db, ctx.keys, input);
    const storeDelay = agent.kind === 'reference' ? FLUSH_MS : STORE_DELAY_MS;
    const t0 = agentRunsRepo(ctx.db).tally(runId);
    const s = { done: total - pending.length, graded: t0.graded, passed: t0.passed, errors: t0.errors, tokens: 0 };
    s.tokens = t0.tokens;

    const specs = new Map<string, { spec: TaskSpec; fixtures: StoredFixture[] } | Error>();
    const load = (taskId: string) => {
      if (!specs.has(taskId))
        try {
          const { spec, fixtures } = storedTaskSpec(tasksRepo(ctx.db), taskId);
          specs.set(taskId, { spec, fixtures });
        } catch (err) {
          specs.set(taskId, err as Error);
        }
      return specs.get(taskId)!;
    };

    const finished: Finished[] = [];
    const failed: Failed[] = [];
    let fatal: unknown;
    let timer: NodeJS.Timeout | undefined;
    let lastFlush = performance.now();
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      lastFlush = performance.now();
      if (!finished.length && !failed.length) return;
      const batch = finished.splice(0);
      const issues = failed.splice(0);
      try {
        commit(ctx, input, runId, batch, issues, s, total);
      } catch (err) {
        fatal ??= err;
        stop.abort(err);
      }
    };
    const after = () => {
      if (finished.length + failed.length >= FLUSH_ROWS || performance.now() - lastFlush >= FLUSH_MS) flush();
      else timer ??= setTimeout(flush, storeDelay);
    };

    let next = 0;
    let lastYield = performance.now();
    const lane = async () => {
      while (!signal.aborted && next < pending.length) {
        const p = pending[next++]!;
        const task = load(p.taskId);
        let e: Episode | undefined;
        try {
          if (task instanceof Error) throw task;
          e = await runEpisode({ ...task, agent, user, trial: p.trial, signal });
        } catch (err) {
          if (signal.aborted) return;
          failed.push({ ...p, message: `the episode could not run: ${(err as Error).message}` });
        }
        if (e) {
          const row = episodeRow(e, { runId, collection: input.collection, trial: p.trial, agentLabel: agent.label });
          const prev = have.get(key(p.taskId, p.trial));
          finished.push({
            row,
            replaces: prev ? prev.id : null,
            passed: e.stop !== 'error' && e.grade.passed,
            errored: e.stop === 'error',
            tokens: row.tokens ?? 0,
          });
        }
        after();
        if (performance.now() - lastYield > YIELD_MS) {
          await new Promise((r) => setImmediate(r));
          lastYield = performance.now();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(input.concurrency, pending.length) }, lane));
    clearTimeout(timer);
    if (fatal) throw fatal;
    if (ctx.signal.aborted) throw new JobCancelled();
    flush();
    if (fatal) throw fatal;

    ctx.commitBatch((db) => agentRunsWriter(db).finish(runId, 'done', ctx.now()), total, progress(s, total), TABLES);
    const t = agentRunsRepo(ctx.db).tally(runId);
    const valid = t.stored - t.errors;
    return {
      runId,
      collection: input.collection,
      agent: agent.label,
      planned: total,
      stored: t.stored,
      skipped: total - pending.length,
      errors: t.errors,
      graded: t.graded,
      passed: t.passed,
      pass_rate: valid ? t.passed / valid : 0,
      mean_score: t.mean_score,
      tokens: t.tokens,
    };
  },
};

function progress(s: { done: number; graded: number; passed: number; errors: number; tokens: number }, total: number) {
  return (
    `${s.done} of ${total} trajectories; pass rate ${pct(s.passed, s.graded)} (${s.passed} of ${s.graded}), ` +
    `${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.tokens.toLocaleString('en-US')} tokens`
  );
}

/** Creates the run and its collection, or finds them again on resume with the pairs already stored. */
function startRun(ctx: JobContext, input: RunJobInput) {
  const repo = agentRunsRepo(ctx.db);
  const found = repo.byJob(ctx.jobId);
  const have = new Map((found ? repo.pairs(found.id) : []).map((p) => [key(p.task_id, p.trial), p]));
  const skipped = [...have.values()].filter((p) => p.valid === 1).length;
  let runId = found?.id ?? 0;
  const total = input.taskIds.length * input.trials;
  ctx.commitBatch(
    (db) => {
      const now = ctx.now();
      const w = agentRunsWriter(db);
      if (found) return w.restart(found.id, skipped, now);
      runsWriter(db).ensureCollection(input.collection, [], now);
      const a = input.labels.agent;
      runId = w.create({
        jobId: ctx.jobId,
        name: input.name,
        agentKind: a.kind,
        agentLabel: a.label,
        endpointName: a.endpoint,
        model: a.model,
        userSimulator: input.labels.user,
        collection: input.collection,
        trials: input.trials,
        concurrency: input.concurrency,
        planned: total,
        selection: input.selection,
        settings: { agent: input.agent, user: input.user, maxAttempts: input.maxAttempts },
        now,
      });
    },
    skipped,
    found ? `resuming: ${skipped} of ${total} trajectories already stored` : 'starting',
    TABLES,
  );
  return { runId, have };
}

/** One batch: finished pairs (an errored earlier row of the pair replaced), failed pairs as issues, counters. */
function commit(
  ctx: JobContext,
  input: RunJobInput,
  runId: number,
  batch: Finished[],
  issues: Failed[],
  s: { done: number; graded: number; passed: number; errors: number; tokens: number },
  total: number,
) {
  const replaced = batch.flatMap((f) => (f.replaces === null ? [] : [f.replaces]));
  const next = { ...s };
  next.done += batch.length + issues.length;
  for (const f of batch) {
    next.graded += f.errored ? 0 : 1;
    next.passed += f.passed ? 1 : 0;
    next.errors += f.errored ? 1 : 0;
    next.tokens += f.tokens;
  }
  next.errors -= replaced.length;
  ctx.commitBatch(
    (db) => {
      const now = ctx.now();
      const w = trajectoriesWriter(db);
      const runs = agentRunsWriter(db);
      if (replaced.length) w.delete(replaced);
      const rows = batch.map((f) => f.row);
      w.insertAll(rows, now);
      for (const i of issues) runs.issue(runId, i.taskId, i.trial, i.message, now);
      const newErrors = batch.filter((f) => f.errored).length;
      runs.add(runId, batch.length - replaced.length, newErrors + issues.length - replaced.length);
      supersession(db).afterInsert(input.collection, new Set(batch.map((f) => f.row.taskId)));
    },
    next.done,
    progress(next, total),
    TABLES,
  );
  Object.assign(s, next);
}
