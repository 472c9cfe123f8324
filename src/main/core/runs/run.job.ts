import type { RunResult } from '../../../shared/contract/entities/run';
import type { RunAgent } from '../../../shared/contract/runs.contract';
import { availableParallelism } from 'node:os';
import type { Agent, UserSimulator } from '../agents/agent-types';
import { JobCancelled, type JobContext, type JobDefinition } from '../jobs/job-definition';
import { storeVerdicts } from '../grading/judge/judge-cache';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { collectionsWriter } from '../trajectories/collections.repo';
import { supersession } from '../trajectories/supersede';
import { trajectoriesWriter } from '../trajectories/trajectories-writer.repo';
import { runSharing } from './episode-helper';
import { withContentHash } from './episode-row';
import { inOrder, type Outcome, type Pair, runPairs } from './run-pairs';
import { needsJudge as taskNeedsJudge } from '../grading/judge/judge-pass';
import { type RunJudge, runJudge } from './run-judge';
import { runParties, type RunUserChoice } from './run-parties';
import { runsRepo, runsWriter } from './runs.repo';

declare module '../jobs/job-types' {
  interface JobInputs {
    'runs.start': RunJobInput;
  }
}

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

const TABLES = ['trajectories', 'runs', 'judge_cache'];
/** A batch commits at this many finished pairs, or this long after the last one… */
const FLUSH_ROWS = 256;
const FLUSH_MS = 100;
/** …and a pair that finished alone is stored this soon (model runs: "as it finishes"). */
const STORE_DELAY_MS = 20;
/** Helper threads of a reference-agent run, at most (the job's thread is one more). */
const MAX_HELPERS = 4;

/** `graded`: rows with a known score (judge-pending ones are counted apart, in `pending`). */
type Counters = { done: number; graded: number; passed: number; errors: number; tokens: number; pending: number };

const key = (taskId: string, trial: number) => `${taskId}\u0000${trial}`;
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');

/**
 * A run: every task × trial pair not yet stored, `concurrency` episodes at a time, each in a fresh
 * environment of its task, graded, and committed with the run's counters shortly after it ends.
 * The reference agent (with the scripted user: nothing waits on the network, so its episodes are
 * pure CPU) runs on every core: helper threads and this thread, which commits and fills the time in
 * between with episodes (runSharing); model runs run here alone.
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
      for (const taskId of input.taskIds) {
        const prev = have.get(key(taskId, trial));
        if (prev?.valid !== 1) pending.push({ taskId, trial, replaces: prev ? prev.id : null });
      }
    const { agent, user } = runParties(ctx.db, ctx.keys, input);
    const judge = runJudge(ctx.db, ctx.keys, input);
    const t0 = runsRepo(ctx.db).tally(runId);
    const { passed, errors, tokens } = t0;
    const s: Counters = {
      done: total - pending.length,
      graded: t0.graded - t0.judge_pending,
      passed,
      errors,
      tokens,
      pending: t0.judge_pending,
    };
    const store = (outcomes: Outcome[]) => commit(ctx, input, runId, outcomes, s, total);

    // The helper threads hold no key and cannot wait on a judge: a run that asks one runs its episodes here.
    const judged = judge && needsJudge(ctx, pending) ? judge : null;
    if (agent.kind === 'reference' && user.kind === 'scripted' && !judged) {
      const parties = { agent: input.agent, user: input.user, maxAttempts: input.maxAttempts };
      const { collection, concurrency } = input;
      const helperInput = { parties, runId, collection, pairs: pending, concurrency };
      await runSharing(ctx, { input: helperInput, agent, user, count: helperCount(pending.length), store });
      if (ctx.signal.aborted) throw new JobCancelled();
    } else await runHere(ctx, input, { runId, pending, agent, user, judge: judged, store });

    ctx.commitBatch(
      (db) => (runsWriter(db).recount(runId), runsWriter(db).finish(runId, 'done', ctx.now())),
      total,
      progress(s, total),
      TABLES,
    );
    const t = runsRepo(ctx.db).tally(runId);
    const known = t.stored - t.errors - t.judge_pending;
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
      pass_rate: known ? t.passed / known : 0,
      mean_score: t.mean_score,
      tokens: t.tokens,
      judge_pending: t.judge_pending,
    };
  },
};

/**
 * Helper threads for `pairs` reference episodes: one per core besides the job's thread (which
 * commits and runs episodes in between), at least one, and no more than there are batches. None for
 * a small run: a helper loads the whole worker bundle (~0.7 s of CPU), about what ~1,000 episodes
 * cost the job thread alone.
 */
const helperCount = (pairs: number) =>
  pairs < MIN_PAIRS_FOR_HELPERS
    ? 0
    : Math.max(1, Math.min(MAX_HELPERS, availableParallelism() - 1, Math.ceil(pairs / FLUSH_ROWS)));
const MIN_PAIRS_FOR_HELPERS = 1_000;

/** A model run in this thread: episodes wait on the network; each outcome is stored shortly after it ends. */
async function runHere(
  ctx: JobContext,
  input: RunJobInput,
  o: {
    runId: number;
    pending: Pair[];
    agent: Agent;
    user: UserSimulator;
    judge: RunJudge | null;
    store: (b: Outcome[]) => void;
  },
) {
  const outcomes: Outcome[] = [];
  let fatal: unknown;
  let timer: NodeJS.Timeout | undefined;
  let lastFlush = performance.now();
  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stop.signal]);
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    lastFlush = performance.now();
    if (!outcomes.length) return;
    try {
      o.store(outcomes.splice(0));
    } catch (err) {
      fatal ??= err;
      stop.abort(err);
    }
  };
  const out = (r: Outcome) => {
    outcomes.push(r);
    if (outcomes.length >= FLUSH_ROWS || performance.now() - lastFlush >= FLUSH_MS) flush();
    else timer ??= setTimeout(flush, STORE_DELAY_MS);
  };
  const { runId, pending: pairs, agent, user, judge } = o;
  const { collection, concurrency } = input;
  const take = inOrder(pairs);
  await runPairs({ db: ctx.db, take, agent, user, judge, runId, collection, concurrency, signal, out });
  clearTimeout(timer);
  if (fatal) throw fatal;
  if (ctx.signal.aborted) throw new JobCancelled();
  flush();
  if (fatal) throw fatal;
}

function progress(s: Counters, total: number) {
  return (
    `${s.done} of ${total} trajectories; pass rate ${pct(s.passed, s.graded)} (${s.passed} of ${s.graded}), ` +
    `${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.tokens.toLocaleString('en-US')} tokens` +
    (s.pending ? `, ${s.pending} judge pending` : '')
  );
}

/**
 * Whether any pair to run is of a task the judge grades: llm_judge checks or judged safety rules (a task that
 * cannot load fails in its lane).
 */
function needsJudge(ctx: JobContext, pairs: readonly Pair[]): boolean {
  const repo = tasksRepo(ctx.db);
  for (const taskId of new Set(pairs.map((p) => p.taskId)))
    try {
      if (taskNeedsJudge(storedTaskSpec(repo, taskId).spec)) return true;
    } catch {}
  return false;
}

/** Creates the run and its collection, or finds them again on resume with the pairs already stored. */
function startRun(ctx: JobContext, input: RunJobInput) {
  const repo = runsRepo(ctx.db);
  const found = repo.byJob(ctx.jobId);
  const have = new Map((found ? repo.pairs(found.id) : []).map((p) => [key(p.task_id, p.trial), p]));
  const skipped = [...have.values()].filter((p) => p.valid === 1).length;
  let runId = found?.id ?? 0;
  const total = input.taskIds.length * input.trials;
  ctx.commitBatch(
    (db) => {
      const now = ctx.now();
      const w = runsWriter(db);
      if (found) return w.restart(found.id, skipped, now);
      collectionsWriter(db).ensureCollection(input.collection, [], now, 'app');
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
function commit(ctx: JobContext, input: RunJobInput, runId: number, outcomes: Outcome[], s: Counters, total: number) {
  const batch = outcomes.flatMap((o) => ('finished' in o ? [o.finished] : []));
  for (const f of batch) withContentHash(f.row); // outside the write lock
  const issues = outcomes.flatMap((o) => ('failed' in o ? [o.failed] : []));
  const replaced = batch.flatMap((f) => (f.replaces === null ? [] : [f.replaces]));
  const next = { ...s };
  next.done += batch.length + issues.length;
  for (const f of batch) {
    next.graded += f.errored || f.pending ? 0 : 1;
    next.pending += f.pending ? 1 : 0;
    next.passed += f.passed ? 1 : 0;
    next.errors += f.errored ? 1 : 0;
    next.tokens += f.tokens;
  }
  next.errors -= replaced.length;
  ctx.commitBatch(
    (db) => {
      const now = ctx.now();
      const w = trajectoriesWriter(db);
      const runs = runsWriter(db);
      if (replaced.length) w.delete(replaced);
      const rows = batch.map((f) => f.row);
      w.insertAll(rows, now);
      storeVerdicts(
        db,
        batch.flatMap((f) => f.verdicts),
        now,
      );
      for (const i of issues) runs.addIssue(runId, i, now);
      const newErrors = batch.filter((f) => f.errored).length;
      runs.count(runId, {
        stored: batch.length - replaced.length,
        failed: newErrors + issues.length - replaced.length,
      });
      supersession(db).afterInsert(input.collection, new Set(batch.map((f) => f.row.taskId)));
    },
    next.done,
    progress(next, total),
    TABLES,
  );
  Object.assign(s, next);
}
