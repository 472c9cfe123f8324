import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { openDb, readHandle } from '../db/sqlite';
import type { HelperEnv, JobContext } from '../jobs/job-definition';
import { runPairs, type Outcome, type Pair } from './run-pairs';
import { runParties, type RunUserChoice } from './run-parties';
import type { RunAgent } from '../../../shared/contract/runs.contract';

/** What a helper runs: its share of the run's pairs, with the parties rebuilt from the run's settings. */
export type EpisodeHelperInput = {
  parties: { agent: RunAgent; user: RunUserChoice; maxAttempts: number };
  runId: number;
  collection: string;
  pairs: Pair[];
  concurrency: number;
};
type Wire = { input: EpisodeHelperInput; port: MessagePort };
type FromHelper = { type: 'batch'; items: Outcome[] } | { type: 'end' } | { type: 'error'; message: string };
type ToHelper = { type: 'ack' } | { type: 'stop' };

/** A helper posts a batch at this many outcomes, or this long after its last one (progress)… */
const FLUSH_ROWS = 256;
const FLUSH_MS = 100;
/** …and runs at most this many batches ahead of the commits (memory: ~30 kB per row). */
const IN_FLIGHT = 2;

/**
 * The job's side: starts `count` helper threads, each running every count-th pair, and yields their
 * batches as they come (a pair's trajectory depends only on its task, trial and seed, so the split
 * changes nothing stored). A batch is acknowledged once the caller's loop body (the commit) is done.
 * Throws when a helper fails or dies; JobCancelled-free: a cancel ends the iteration (check the signal).
 * Ending the iteration early (break, throw) stops and terminates every helper.
 */
export async function* episodesInHelpers(
  ctx: JobContext,
  input: EpisodeHelperInput,
  count: number,
): AsyncGenerator<Outcome[]> {
  const shares = Array.from({ length: count }, (_, k) => input.pairs.filter((_, i) => i % count === k));
  const queue: { port: MessagePort; m: FromHelper | { type: 'exit'; code: number } }[] = [];
  let wake: (() => void) | undefined;
  const push = (port: MessagePort, m: (typeof queue)[number]['m']) => {
    queue.push({ port, m });
    wake?.();
  };
  const onAbort = () => wake?.();
  ctx.signal.addEventListener('abort', onAbort);
  const helpers: { port: MessagePort; worker: Worker }[] = [];
  try {
    for (const pairs of shares.filter((s) => s.length)) {
      const { port1, port2 } = new MessageChannel();
      const wire: Wire = { input: { ...input, pairs }, port: port2 };
      const worker = ctx.startHelper('runs.episodes', wire, [port2]);
      port1.on('message', (m: FromHelper) => push(port1, m));
      worker.on('error', (err) => push(port1, { type: 'error', message: err.message }));
      worker.on('exit', (code) => {
        // Messages posted just before the exit may not have been delivered yet: take them first.
        for (let got = receiveMessageOnPort(port1); got; got = receiveMessageOnPort(port1))
          push(port1, got.message as FromHelper);
        push(port1, { type: 'exit', code });
      });
      helpers.push({ port: port1, worker });
    }
    const ended = new Set<MessagePort>();
    while (ended.size < helpers.length && !ctx.signal.aborted) {
      const next = queue.shift();
      if (!next) {
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
        continue;
      }
      const { port, m } = next;
      if (m.type === 'batch') {
        yield m.items;
        port.postMessage({ type: 'ack' } satisfies ToHelper);
      } else if (m.type === 'end') ended.add(port);
      else if (m.type === 'error') throw new Error(`running the episodes failed: ${m.message}`);
      else if (!ended.has(port)) throw new Error(`an episode helper thread stopped (exit code ${m.code})`);
    }
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    for (const h of helpers) {
      h.port.postMessage({ type: 'stop' } satisfies ToHelper);
      h.port.close();
      void h.worker.terminate();
    }
  }
}

/**
 * The helper thread's body: runs its pairs (episodes, grading, the rows to store with their JSON)
 * and posts them in batches, at most IN_FLIGHT ahead of the job's commits. The rows' content hashes
 * are left to the job's thread, which waits on its helper more than the helper waits on it.
 */
export async function episodeHelperMain(data: unknown, env: HelperEnv): Promise<void> {
  const { input, port } = data as Wire;
  const stop = new AbortController();
  let inFlight = 0;
  let waiting: (() => void)[] = [];
  port.on('message', (m: ToHelper) => {
    if (m.type === 'ack') inFlight--;
    else stop.abort();
    for (const w of waiting.splice(0)) w();
  });
  let db: ReturnType<typeof openDb> | undefined;
  let batch: Outcome[] = [];
  let lastPost = performance.now();
  const send = () => {
    port.postMessage({ type: 'batch', items: batch } satisfies FromHelper);
    batch = [];
    lastPost = performance.now();
    inFlight++;
  };
  const out = (r: Outcome): Promise<void> | undefined => {
    batch.push(r);
    if (batch.length < FLUSH_ROWS && performance.now() - lastPost < FLUSH_MS) return;
    if (inFlight < IN_FLIGHT) {
      send();
      return;
    }
    // Ahead of the commits: a full batch waits for an acknowledgement (a partial one keeps growing).
    if (batch.length >= FLUSH_ROWS)
      return room().then(() => (batch.length && !stop.signal.aborted ? send() : undefined));
  };
  const room = async () => {
    while (inFlight >= IN_FLIGHT && !stop.signal.aborted) await new Promise<void>((r) => waiting.push(r));
  };
  try {
    db = openDb(env.workspacePath, env.nativeBinding ? { nativeBinding: env.nativeBinding } : {});
    // Keys are not needed (nor passed): helpers run the reference agent with the scripted user only.
    const { agent, user } = runParties(readHandle(db), { secrets: null, env: {} }, input.parties);
    await runPairs({ ...input, db: readHandle(db), agent, user, hashLater: true, signal: stop.signal, out });
    if (!stop.signal.aborted) {
      if (batch.length) send();
      port.postMessage({ type: 'end' } satisfies FromHelper);
    }
  } catch (err) {
    if (!stop.signal.aborted)
      port.postMessage({ type: 'error', message: (err as Error).message ?? String(err) } satisfies FromHelper);
  } finally {
    waiting = [];
    db?.close();
    port.close();
  }
}
