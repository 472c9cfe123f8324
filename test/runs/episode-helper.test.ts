import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../../src/main/core/jobs/job-definition';
import { openDb, readHandle } from '../../src/main/core/db/sqlite';
import { referenceAgent } from '../../src/main/core/agents/reference-agent';
import { scriptedUser } from '../../src/main/core/agents/scripted-user';
import { type EpisodeHelperInput, runSharing } from '../../src/main/core/runs/episode-helper';
import { contentHashOf, withContentHash } from '../../src/main/core/runs/episode-row';
import type { Outcome, Pair } from '../../src/main/core/runs/run-pairs';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { TS_WORKER } from '../helpers/test-core';

/**
 * A reference-agent run's episodes shared by helper threads and the committing thread (runs.start
 * runs them so on any machine): what each pair yields does not depend on how many threads share the
 * pairs, a task that cannot run is an issue of its pair, and stopping early ends the helpers. The
 * job around it is tested in reference-run and run-state.
 */
// Each helper thread loads the TypeScript sources through tsx: seconds apiece on a busy machine.
describe('episodes in helper threads', { timeout: 180_000 }, () => {
  let tasks: TaskSpec[];
  let t: ReturnType<typeof runWorkspace>;
  let db: ReturnType<typeof openDb>;
  beforeAll(() => {
    tasks = generatedTasks(6);
    t = runWorkspace(tasks);
    db = openDb(t.workspacePath);
  });
  afterAll(async () => {
    db.close();
    await t.core.close();
  });

  /** Every helper started, with a promise of its exit. */
  const exits: Promise<number>[] = [];
  const context = (signal = new AbortController().signal) =>
    ({
      signal,
      db: readHandle(db),
      startHelper: (helper, data, transferList = []) => {
        const workerData = { helper, data, workspacePath: t.workspacePath };
        const w = new Worker(TS_WORKER.workerEntry, { workerData, transferList });
        exits.push(new Promise((resolve) => w.once('exit', resolve)));
        return w;
      },
    }) as Pick<JobContext, 'signal' | 'db' | 'startHelper'> as JobContext;
  const perturbations = { skip_step: 0.2, wrong_argument: 0.2, prohibited_call: 0.3 };
  const input = (pairs: Pair[]): EpisodeHelperInput => ({
    parties: {
      agent: { kind: 'reference', seed: 7, perturbations, clean: false },
      user: { kind: 'scripted' },
      maxAttempts: 1,
    },
    runId: 1,
    collection: 'helpers',
    pairs,
    concurrency: 4,
  });
  /**
   * The job thread's parties, built from the same settings as the helpers'. Its agent takes 50 ms
   * per episode (blocking, like a long commit): the helpers, seconds to start under tsx, get pairs too.
   */
  const agent = referenceAgent({ seed: 7, perturbations });
  const slow = new Int32Array(new SharedArrayBuffer(4));
  const parties = {
    agent: {
      ...agent,
      begin: (...a: Parameters<typeof agent.begin>) => (Atomics.wait(slow, 0, 0, 50), agent.begin(...a)),
    },
    user: scriptedUser(),
  };
  /** Every outcome, and how many came from the helpers (their rows arrive as bytes, unhashed). */
  const all = async (pairs: Pair[], count: number) => {
    const out: Outcome[] = [];
    let fromHelpers = 0;
    const store = (b: Outcome[]) => {
      for (const o of b)
        if ('finished' in o && o.finished.row.contentHash === '') {
          expect(Buffer.isBuffer(o.finished.row.trajectoryJson)).toBe(true);
          fromHelpers++;
        }
      out.push(...b);
    };
    await runSharing(context(), { input: input(pairs), ...parties, count, store });
    return Object.assign(out, { fromHelpers });
  };
  /** What a pair's trajectory is made of, without its ids and wall-clock times. */
  const essence = (o: Outcome) => {
    if (!('finished' in o)) throw new Error(`${o.failed.taskId}/${o.failed.trial}: ${o.failed.message}`);
    const r = withContentHash(o.finished.row);
    const json = r.trajectoryJson!;
    const text = typeof json === 'string' ? json : Buffer.from(json).toString('utf8');
    const j = JSON.parse(text);
    return {
      task: r.taskId,
      trial: r.trial,
      score: r.grade?.score,
      passed: o.finished.passed,
      applied: j.metadata.agent.perturbations_applied,
      calls: j.dispatches.map((d: { tool: string; args: unknown; body: unknown }) => [d.tool, d.args, d.body]),
      audits: j.audits.length,
      hash: r.contentHash === contentHashOf(text),
    };
  };
  const byPair = (os: Outcome[]) =>
    new Map(os.map((o) => ('finished' in o ? o.finished.row : o.failed)).map((r, i) => [`${r.taskId}/${r.trial}`, i]));

  it('yields the same trajectory for each pair with one helper or three besides the job thread', async () => {
    const pairs: Pair[] = [];
    for (let trial = 0; trial < 5; trial++)
      for (const s of tasks) pairs.push({ taskId: s.task_id, trial, replaces: null });
    const [one, three] = [await all(pairs, 1), await all(pairs, 3)];
    expect(one).toHaveLength(30);
    expect(three).toHaveLength(30);
    const a = byPair(one);
    const b = byPair(three);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [k, i] of a) expect(essence(three[b.get(k)!]!), k).toEqual(essence(one[i]!));
    // The seeded perturbations did something, and the same thing both times.
    const applied = one.flatMap((o) => ('finished' in o ? [essence(o)] : [])).filter((e) => e.applied?.length);
    expect(applied.length).toBeGreaterThan(0);
    expect(one.every((o) => 'finished' in o && essence(o).hash)).toBe(true);
  });

  it("a task that cannot run is its pair's issue; the other pairs run", async () => {
    const pairs: Pair[] = [
      { taskId: tasks[0]!.task_id, trial: 0, replaces: 41 },
      { taskId: 'no-such-task', trial: 0, replaces: null },
    ];
    const out = await all(pairs, 2);
    const failed = out.flatMap((o) => ('failed' in o ? [o.failed] : []));
    expect(failed).toEqual([
      { taskId: 'no-such-task', trial: 0, message: expect.stringMatching(/could not run.*no-such-task/) },
    ]);
    const finished = out.flatMap((o) => ('finished' in o ? [o.finished] : []));
    expect(finished.map((f) => [f.row.taskId, f.replaces])).toEqual([[tasks[0]!.task_id, 41]]);
  });

  it('stopping early (a failed commit, a cancel) ends the helpers', async () => {
    const pairs: Pair[] = [];
    for (let trial = 0; trial < 400; trial++)
      for (const s of tasks) pairs.push({ taskId: s.task_id, trial, replaces: null });
    exits.length = 0;
    let batches = 0;
    const failing = (b: Outcome[]) => {
      if (b.length && ++batches === 2) throw new Error('the commit failed');
    };
    await expect(runSharing(context(), { input: input(pairs), ...parties, count: 1, store: failing })).rejects.toThrow(
      'the commit failed',
    );
    expect(exits).toHaveLength(1);
    await Promise.all(exits);

    const cancel = new AbortController();
    let seen = 0;
    const store = (b: Outcome[]) => {
      seen += b.length;
      cancel.abort();
    };
    await runSharing(context(cancel.signal), { input: input(pairs), ...parties, count: 1, store });
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(pairs.length);
    expect(exits).toHaveLength(2);
    await Promise.all(exits); // a helper left running would hold this test until its timeout
  });
});
