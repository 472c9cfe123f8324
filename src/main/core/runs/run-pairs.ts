import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Agent, UserSimulator } from '../agents/agent-types';
import { type Episode, runEpisode } from '../agents/agent-loop';
import type { ReadDb } from '../db/sqlite';
import { storedTaskSpec, type StoredFixture } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import type { PreparedRow } from '../trajectories/import/prepare';
import type { JudgeVerdict } from '../grading/judge/judge-check';
import { episodeRow } from './episode-row';
import type { RunJudge } from './run-judge';

/** A task × trial pair to run; `replaces`: the id of its stored errored row, replaced in the same commit. */
export type Pair = { taskId: string; trial: number; replaces: number | null };
export type Finished = {
  row: PreparedRow;
  replaces: number | null;
  passed: boolean;
  errored: boolean;
  tokens: number;
  /** Its score waits for a judge (none configured, or it failed): neither a pass nor a failure. */
  pending: boolean;
  /** The judge's answers obtained for this episode, cached in the commit that stores the row. */
  verdicts: JudgeVerdict[];
};
export type Failed = { taskId: string; trial: number; message: string };
/** One pair's outcome: its stored row, or why it could not run (an issue of the run). */
export type Outcome = { finished: Finished } | { failed: Failed };

/** Episodes of the reference agent never wait: give timers (cancel polling, stores, acks) a turn this often. */
const YIELD_MS = 40;

/** Hands out `pairs` in order, then undefined. */
export function inOrder(pairs: readonly Pair[]): () => Pair | undefined {
  let i = 0;
  return () => pairs[i++];
}

/**
 * Runs the pairs `take` hands out (in order; threads may share one source), `concurrency` episodes at
 * a time, each in a fresh environment of its task, and hands each outcome (the row to store, built
 * here) to `out`, which may hold the lane back. Returns when `take` has no more pairs and every
 * episode ended, or the signal fired; an episode cut short by the signal yields nothing.
 */
export async function runPairs(o: {
  db: ReadDb;
  take: () => Pair | undefined;
  agent: Agent;
  user: UserSimulator;
  runId: number;
  collection: string;
  concurrency: number;
  /** Grades llm_judge checks as each episode ends (run-judge.ts); without it they stay judge pending. */
  judge?: RunJudge | null;
  /** Rows for another thread to commit (episodeRow's forTransfer). */
  forTransfer?: boolean;
  signal: AbortSignal;
  out: (r: Outcome) => void | Promise<void>;
}): Promise<void> {
  const { agent, user, signal, take } = o;
  const specs = new Map<string, { spec: TaskSpec; fixtures: StoredFixture[] } | Error>();
  const load = (taskId: string) => {
    if (!specs.has(taskId))
      try {
        const { spec, fixtures } = storedTaskSpec(tasksRepo(o.db), taskId);
        specs.set(taskId, { spec, fixtures });
      } catch (err) {
        specs.set(taskId, err as Error);
      }
    return specs.get(taskId)!;
  };

  let lastYield = performance.now();
  const lane = async () => {
    for (;;) {
      const p = signal.aborted ? undefined : take();
      if (!p) return;
      const task = load(p.taskId);
      let e: Episode | undefined;
      let outcome: Outcome | undefined;
      let verdicts: JudgeVerdict[] = [];
      try {
        if (task instanceof Error) throw task;
        e = await runEpisode({ ...task, agent, user, trial: p.trial, signal });
        // In the lane: the judge's wait overlaps the other lanes' episodes, and the row is built once, judged.
        if (o.judge) ({ episode: e, verdicts } = await o.judge.judge(task.spec, e, signal));
      } catch (err) {
        if (signal.aborted) return;
        const message = `the episode could not run: ${(err as Error).message}`;
        outcome = { failed: { taskId: p.taskId, trial: p.trial, message } };
      }
      if (e) {
        const row = episodeRow(e, {
          runId: o.runId,
          collection: o.collection,
          trial: p.trial,
          agentLabel: agent.label,
          forTransfer: o.forTransfer ?? false,
        });
        const errored = e.stop === 'error';
        // The score of record is unknown (NULL) exactly when judge-pending weight leaves it open (row-scores.ts).
        const pending = !errored && row.sourceReward === null;
        const passed = !errored && !pending && e.grade.passed;
        const tokens = row.tokens ?? 0;
        outcome = { finished: { row, replaces: p.replaces, passed, errored, tokens, pending, verdicts } };
      }
      const held = o.out(outcome!);
      if (held) await held;
      if (performance.now() - lastYield > YIELD_MS) {
        await new Promise((r) => setImmediate(r));
        lastYield = performance.now();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, lane));
}
