import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import type { RunAgent } from '../../../shared/contract/runs.contract';
import type { Agent, UserSimulator } from '../agents/agent-types';
import { openDb, readHandle } from '../db/sqlite';
import type { HelperEnv, JobContext } from '../jobs/job-definition';
import { type Outcome, type Pair, runPairs } from './run-pairs';
import { runParties, type RunUserChoice } from './run-parties';

/** What the helpers share: the run's pairs (taken one at a time, by any thread) and its parties' settings. */
export type EpisodeHelperInput = {
  parties: { agent: RunAgent; user: RunUserChoice; maxAttempts: number };
  runId: number;
  collection: string;
  pairs: Pair[];
  concurrency: number;
};
type Wire = { input: EpisodeHelperInput; shared: SharedArrayBuffer; port: MessagePort };
type FromHelper = { type: 'batch'; items: Outcome[] } | { type: 'end' } | { type: 'error'; message: string };
type ToHelper = { type: 'ack' } | { type: 'stop' };
type Helper = { port: MessagePort; worker: Worker; ended: boolean; exit: number | null; error?: string };

/** Shared counters: the next pair to take (every thread takes from it); messages posted by the helpers. */
const NEXT = 0;
const POSTED = 1;
/** A helper posts this many outcomes, or whatever finished this long after its last post… */
const FLUSH_ROWS = 256;
const FLUSH_MS = 100;
/** …and runs at most this many posts ahead of the commits (memory: ~25 kB per row). */
const IN_FLIGHT = 4;
/**
 * The job thread commits once this many outcomes wait (its own and the helpers'), or whatever waits
 * this long after its last commit: every commit also settles the curation statistics of the
 * batch's tasks (all of a run's tasks, trial by trial), so fewer, fuller commits cost less.
 */
const COMMIT_ROWS = 256;
const COMMIT_MS = 250;
/** How long the job waits for a helper's message before it looks again at exits and the cancel. */
const WAIT_MS = 250;

// ES2024's Atomics.waitAsync (Node ≥ 16), not in this project's ES2023 lib.
const waitAsync = (
  Atomics as unknown as {
    waitAsync(a: Int32Array, i: number, v: number, ms: number): { value: Promise<string> | string };
  }
).waitAsync;

const sharedTake = (pairs: readonly Pair[], s: Int32Array) => () => {
  const i = Atomics.add(s, NEXT, 1);
  return i < pairs.length ? pairs[i] : undefined;
};

/**
 * A reference-agent run over every core: `count` helper threads and this (the job's) thread take
 * the pairs one at a time from one shared counter; the helpers post their outcomes in batches, and
 * this thread commits them (with its own outcomes) through `store`, running episodes of its own
 * whenever nothing waits to be committed — so the committing thread is never idle while pairs are
 * left. A pair's trajectory depends only on its task, trial and seed: which thread ran it changes
 * nothing stored. Returns when every pair is stored or the signal fired (the caller checks it);
 * throws what `store` throws, or when a helper fails or dies; helpers are stopped either way.
 */
export async function runSharing(
  ctx: JobContext,
  o: { input: EpisodeHelperInput; agent: Agent; user: UserSimulator; count: number; store: (b: Outcome[]) => void },
): Promise<void> {
  const shared = new SharedArrayBuffer(8);
  const s = new Int32Array(shared);
  const helpers: Helper[] = [];
  /** Outcomes not committed yet (this thread's and the helpers'), and the helpers to acknowledge after. */
  let waiting: Outcome[] = [];
  let acks: MessagePort[] = [];
  let lastStore = performance.now();

  /** Takes the helpers' posts; commits what waits when there is enough, it waited long enough, or `all`. */
  const drain = (all: boolean) => {
    for (const h of helpers) {
      const exited = h.exit !== null; // read first: an exit comes after the helper's last message
      for (let got = receiveMessageOnPort(h.port); got; got = receiveMessageOnPort(h.port)) {
        const m = got.message as FromHelper;
        if (m.type === 'batch') {
          // Transferred bytes arrive as Uint8Arrays: Buffers again (a view, no copy) for SQLite.
          for (const o of m.items)
            if ('finished' in o && o.finished.row.trajectoryJson instanceof Uint8Array) {
              const b = o.finished.row.trajectoryJson;
              o.finished.row.trajectoryJson = Buffer.from(b.buffer, b.byteOffset, b.length);
            }
          for (const x of m.items) waiting.push(x);
          acks.push(h.port);
        } else if (m.type === 'end') h.ended = true;
        else throw new Error(`running the episodes failed: ${m.message}`);
      }
      if (exited && !h.ended) throw new Error(`an episode helper thread stopped: ${h.error ?? `exit code ${h.exit}`}`);
    }
    const n = waiting.length;
    if (n < COMMIT_ROWS && !(n && (all || performance.now() - lastStore >= COMMIT_MS))) return;
    const outcomes = waiting;
    const told = acks;
    [waiting, acks] = [[], []];
    lastStore = performance.now();
    o.store(outcomes);
    for (const port of told) port.postMessage({ type: 'ack' } satisfies ToHelper);
  };

  try {
    for (let k = 0; k < o.count; k++) {
      const { port1, port2 } = new MessageChannel();
      const wire: Wire = { input: o.input, shared, port: port2 };
      const h: Helper = {
        port: port1,
        worker: ctx.startHelper('runs.episodes', wire, [port2]),
        ended: false,
        exit: null,
      };
      helpers.push(h);
      h.worker.on('error', (err) => {
        h.error ??= err.message;
      });
      h.worker.on('exit', (code) => {
        h.exit = code;
        Atomics.add(s, POSTED, 1);
        Atomics.notify(s, POSTED);
      });
    }
    const { runId, collection } = o.input;
    const take = sharedTake(o.input.pairs, s);
    const out = (r: Outcome) => {
      waiting.push(r);
      drain(false);
    };
    // One lane: this thread's episodes are fillers between commits (the reference agent never waits).
    await runPairs({
      db: ctx.db,
      take,
      agent: o.agent,
      user: o.user,
      runId,
      collection,
      concurrency: 1,
      signal: ctx.signal,
      out,
    });
    // Every pair is taken: what this thread ran, then the helpers' last batches as they come.
    for (;;) {
      const seen = Atomics.load(s, POSTED);
      drain(true);
      if (ctx.signal.aborted || helpers.every((h) => h.ended)) return;
      await waitAsync(s, POSTED, seen, WAIT_MS).value;
    }
  } finally {
    for (const h of helpers) {
      h.port.postMessage({ type: 'stop' } satisfies ToHelper);
      h.port.close();
      void h.worker.terminate();
    }
  }
}

/**
 * A helper thread's body: takes pairs from the shared counter, runs them (episodes, grading, the
 * rows to store with their JSON as UTF-8 bytes) and posts them in batches, at most IN_FLIGHT ahead
 * of the job's commits; the job's thread hashes the bytes and binds them as they are.
 */
export async function episodeHelperMain(data: unknown, env: HelperEnv): Promise<void> {
  const { input, shared, port } = data as Wire;
  const s = new Int32Array(shared);
  const stop = new AbortController();
  let inFlight = 0;
  let waiting: (() => void)[] = [];
  port.on('message', (m: ToHelper) => {
    if (m.type === 'ack') inFlight--;
    else stop.abort();
    for (const w of waiting.splice(0)) w();
  });
  const post = (m: FromHelper, transfer: ArrayBuffer[] = []) => {
    port.postMessage(m, transfer);
    Atomics.add(s, POSTED, 1);
    Atomics.notify(s, POSTED);
  };
  let db: ReturnType<typeof openDb> | undefined;
  let batch: Outcome[] = [];
  let lastPost = performance.now();
  const send = () => {
    // Each row's JSON bytes are memory of their own (TextEncoder): transferred, not copied.
    const bytes = batch.flatMap((o) => {
      const json = 'finished' in o ? o.finished.row.trajectoryJson : null;
      return json instanceof Uint8Array ? [json.buffer as ArrayBuffer] : [];
    });
    post({ type: 'batch', items: batch }, bytes);
    batch = [];
    lastPost = performance.now();
    inFlight++;
  };
  const room = async () => {
    while (inFlight >= IN_FLIGHT && !stop.signal.aborted) await new Promise<void>((r) => waiting.push(r));
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
  try {
    db = openDb(env.workspacePath, env.nativeBinding ? { nativeBinding: env.nativeBinding } : {});
    // Keys are not needed (nor passed): helpers run the reference agent with the scripted user only.
    const { agent, user } = runParties(readHandle(db), { secrets: null, env: {} }, input.parties);
    const take = sharedTake(input.pairs, s);
    const { runId, collection, concurrency } = input;
    await runPairs({
      db: readHandle(db),
      take,
      agent,
      user,
      runId,
      collection,
      concurrency,
      forTransfer: true,
      signal: stop.signal,
      out,
    });
    if (!stop.signal.aborted) {
      if (batch.length) send();
      post({ type: 'end' });
    }
  } catch (err) {
    if (!stop.signal.aborted) post({ type: 'error', message: (err as Error).message ?? String(err) });
  } finally {
    waiting = [];
    db?.close();
    port.close();
  }
}
