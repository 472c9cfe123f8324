import { MessageChannel, type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { openDb, readHandle } from '../../db/sqlite';
import type { HelperEnv, JobContext } from '../../jobs/job-definition';
import { taskLookup } from './prepare';
import { produceFile, type FileJob, type ParseMessage, type ProduceOptions } from './produce';

export type ParseHelperInput = { jobs: FileJob[]; options: ProduceOptions };
type Wire = { input: ParseHelperInput; sab: SharedArrayBuffer; port: MessagePort };
type HelperMessage = ParseMessage | { type: 'end' } | { type: 'error'; message: string };

/** Shared counters: messages posted, messages consumed, stop requested, heartbeat. */
const POSTED = 0;
const CONSUMED = 1;
const STOP = 2;
const BEAT = 3;
/** Batches read ahead of the writer: enough to keep both threads busy, few enough to bound memory. */
const IN_FLIGHT = 2;
/** The helper beats at least once per batch; this long without a beat means it died. */
const SILENCE_MS = 180_000;

class Stopped extends Error {}

/**
 * The job's side: starts the parse helper and yields its messages in order, waiting synchronously
 * (Atomics.wait + receiveMessageOnPort: job bodies are synchronous) and acknowledging each once the
 * caller has committed it, which lets the helper read ahead by IN_FLIGHT batches and no more.
 */
export function* parseInHelper(ctx: JobContext, input: ParseHelperInput): Generator<ParseMessage> {
  const sab = new SharedArrayBuffer(16);
  const s = new Int32Array(sab);
  const { port1, port2 } = new MessageChannel();
  const worker = ctx.startHelper('trajectories.parse', { input, sab, port: port2 } satisfies Wire, [port2]);
  let seen = 0;
  let beat = -1;
  let lastBeat = Date.now();
  try {
    for (;;) {
      const got = receiveMessageOnPort(port1);
      if (!got) {
        if (Atomics.load(s, POSTED) === seen) Atomics.wait(s, POSTED, seen, 1000);
        const b = Atomics.load(s, BEAT);
        if (b !== beat) [beat, lastBeat] = [b, Date.now()];
        else if (Date.now() - lastBeat > SILENCE_MS) throw new Error('the parse helper thread stopped answering');
        continue;
      }
      seen++;
      const m = got.message as HelperMessage;
      if (m.type === 'end') return;
      if (m.type === 'error') throw new Error(`reading the files failed: ${m.message}`);
      // Transferred buffers arrive as Uint8Arrays: make them Buffers again (a view, no copy).
      if (m.type === 'batch')
        for (const r of m.rows) if (r.raw) r.raw = Buffer.from(r.raw.buffer, r.raw.byteOffset, r.raw.length);
      yield m;
      Atomics.add(s, CONSUMED, 1);
      Atomics.notify(s, CONSUMED);
    }
  } finally {
    Atomics.store(s, STOP, 1);
    Atomics.notify(s, CONSUMED);
    port1.close();
    void worker.terminate();
  }
}

/**
 * Copies the WAL's committed pages into the database file while this thread would otherwise wait
 * for the writer. Why: the committing thread is an import's bottleneck, and its own checkpoints
 * (every 64 MB of WAL, see job-worker.ts) — page copies and two fsyncs each — were about a third of
 * its wall time (bench/README.md). PASSIVE never blocks the writer; after this, the writer's own
 * checkpoint only copies the pages committed since, and still restarts the WAL. A checkpoint that
 * fails (busy) is harmless: the writer's own catches up.
 */
function checkpoint(db: ReturnType<typeof openDb>): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or locked: the writer checkpoints on its own
  }
}

/** The helper thread's body: reads the files and posts each batch, its rows' bytes in one transferred buffer. */
export function parseHelperMain(data: unknown, env: HelperEnv): void {
  const { input, sab, port } = data as Wire;
  const s = new Int32Array(sab);
  const db = openDb(env.workspacePath, env.nativeBinding ? { nativeBinding: env.nativeBinding } : {});
  const post = (m: HelperMessage, transfer: ArrayBuffer[] = []) => {
    for (let checkpointed = false; ; ) {
      if (Atomics.load(s, STOP)) throw new Stopped();
      const consumed = Atomics.load(s, CONSUMED);
      if (Atomics.load(s, POSTED) - consumed < IN_FLIGHT) break;
      if (!checkpointed) {
        checkpoint(db);
        checkpointed = true;
        continue;
      }
      Atomics.add(s, BEAT, 1);
      Atomics.wait(s, CONSUMED, consumed, 1000);
    }
    port.postMessage(m, transfer);
    Atomics.add(s, POSTED, 1);
    Atomics.notify(s, POSTED);
  };
  try {
    const spec = taskLookup(readHandle(db));
    for (const job of input.jobs)
      for (const m of produceFile(job, input.options, spec)) {
        Atomics.add(s, BEAT, 1);
        // Each row's bytes are memory of its own (recordBytes): transferred, not copied.
        const transfer = m.type === 'batch' ? m.rows.flatMap((r) => (r.raw ? [r.raw.buffer as ArrayBuffer] : [])) : [];
        post(m, transfer);
      }
    post({ type: 'end' });
  } catch (err) {
    if (!(err instanceof Stopped))
      try {
        post({ type: 'error', message: (err as Error).message ?? String(err) });
      } catch {
        // stopped meanwhile: nobody is listening
      }
  } finally {
    db.close();
    port.close();
  }
}
