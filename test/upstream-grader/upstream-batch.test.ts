import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpstreamBatch, type UpstreamBatchOptions } from '../../src/main/core/upstream-grader/upstream-batch';
import { runUpstreamGrader } from '../../src/main/core/upstream-grader/run-upstream';
import { writeTrace } from '../../src/main/core/traces';
import { PYTHON } from '../helpers/python';
import { handTask, planTurns, rollout } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

/**
 * Issue 19 item 6, at volume: many traces graded by long-lived driver processes (upstream-batch.ts) answer exactly
 * what one process per trace answers, and a grader that hangs, exits, raises or prints costs its own trace only.
 * Against test/fixtures/claw-eval-checkout (a stand-in, not upstream code).
 */
const ROOT = path.join(__dirname, '../fixtures/claw-eval-checkout');
const EMPTY = path.join(ROOT, 'empty.jsonl');
const taskDir = (id: string, root = ROOT) => path.join(root, 'tasks', id);
const SKIP = PYTHON.ok ? '' : ` (skipped: ${PYTHON.why})`;

/** A good run and a safety violation of T900_stub as trace files. */
function stubTraces(): { good: string; bad: string } {
  const task = handTask({ task_id: 'T900_stub' });
  const at = { now: () => new Date('2026-04-10T09:00:00Z') };
  const dir = tempDir();
  const good = path.join(dir, 'good.jsonl');
  const bad = path.join(dir, 'bad.jsonl');
  fs.writeFileSync(good, writeTrace(rollout(task, planTurns(task), task.spec.reference_final_text ?? ''), at));
  const unsafe = [...planTurns(task), [{ tool: 'gmail_send_message', args: { to: 'x@y.z' } }]];
  fs.writeFileSync(bad, writeTrace(rollout(task, unsafe, 'sent', 'r2'), at));
  return { good, bad };
}

const batches: UpstreamBatch[] = [];
const open = (o: Partial<UpstreamBatchOptions> = {}) => {
  const b = new UpstreamBatch({ root: ROOT, ...o });
  batches.push(b);
  return b;
};
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(batches.splice(0).map((b) => b.close()));
});

describe.skipIf(!PYTHON.ok)(`upstream grader.py in long-lived processes${SKIP}`, () => {
  it('answers trace by trace exactly what one process per trace answers (grades and failures)', async () => {
    const { good, bad } = stubTraces();
    const cases: [string, string][] = [
      ['T900_stub', good],
      ['T900_stub', bad],
      ['T907_loads', EMPTY],
      ['T901_crash', EMPTY],
      ['T905_print', EMPTY],
      ['T907_loads', EMPTY],
      ['T903_network', EMPTY],
      ['T999_missing', EMPTY],
      ['T904_no_grader', EMPTY],
      ['T900_stub', good],
      ['T907_loads', EMPTY],
    ];
    for (const judge of [null, { stub_score: 1 }]) {
      const alone = [];
      for (const [id, trace] of cases)
        alone.push(await runUpstreamGrader({ root: ROOT, taskDir: taskDir(id), tracePath: trace, judge }));
      const batch = open({ judge, workers: 2 });
      const together = await Promise.all(cases.map(([id, trace]) => batch.grade(taskDir(id), trace)));
      expect(together).toEqual(alone);
      // Loaded once per process, a fresh instance per trace: 1 / loads and 1 / calls stay 1.
      expect(together[2]).toMatchObject({ ok: true, completion: 1, safety: 1, score: 1 });
      expect(together[10]).toEqual(together[2]);
      expect(together[4]).toMatchObject({ ok: true, completion: 1, passed: true }); // printed, read no stdin
    }
  });

  it('a grader.py edited between two traces is loaded again (cached by its content)', async () => {
    const root = tempDir();
    fs.cpSync(ROOT, root, { recursive: true });
    const grader = path.join(taskDir('T907_loads', root), 'grader.py');
    const batch = open({ root, workers: 1 });
    expect(await batch.grade(taskDir('T907_loads', root), EMPTY)).toMatchObject({ ok: true, completion: 1 });
    fs.writeFileSync(grader, fs.readFileSync(grader, 'utf8').replace('COMPLETION = 1.0', 'COMPLETION = 0.5'));
    // Executed a second time in the same process (loads = 2): 0.5 / 2.
    expect(await batch.grade(taskDir('T907_loads', root), EMPTY)).toMatchObject({ ok: true, completion: 0.25 });
  });

  it('a grader that raises is reported with its file, and the next trace is graded', async () => {
    const { good } = stubTraces();
    const batch = open({ workers: 1 });
    const [crash, next] = await Promise.all([
      batch.grade(taskDir('T901_crash'), EMPTY),
      batch.grade(taskDir('T900_stub'), good),
    ]);
    expect(crash).toEqual({
      ok: false,
      stage: 'grade',
      file: path.join(taskDir('T901_crash'), 'grader.py'),
      error: "AttributeError: 'NoneType' object has no attribute 'evaluate'",
    });
    expect(next).toMatchObject({ ok: true, passed: true });
  });

  it('a grader that ends its process costs its own trace; a fresh process grades the next', async () => {
    const { good } = stubTraces();
    const batch = open({ workers: 1 });
    const [gone, next] = await Promise.all([
      batch.grade(taskDir('T906_exit'), EMPTY),
      batch.grade(taskDir('T900_stub'), good),
    ]);
    expect(gone).toMatchObject({ ok: false, stage: 'protocol', error: expect.stringMatching(/exit code 3/) });
    expect(next).toMatchObject({ ok: true, passed: true });
  });

  it('a grader that hangs is timed out (its process killed) and the next trace is graded', async () => {
    const { good } = stubTraces();
    const batch = open({ workers: 1, timeoutMs: 60_000 });
    expect(await batch.grade(taskDir('T900_stub'), good)).toMatchObject({ ok: true }); // the process is up
    const [first] = batch.pids;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const hang = batch.grade(taskDir('T902_hang'), EMPTY);
    const next = batch.grade(taskDir('T900_stub'), good);
    vi.advanceTimersByTime(60_000); // the hang's time limit; the next trace's own timer is a fresh one
    expect(await hang).toEqual({
      ok: false,
      stage: 'timeout',
      file: path.join(taskDir('T902_hang'), 'grader.py'),
      error: 'grader.py gave no answer within 60000 ms; killed',
    });
    expect(await next).toMatchObject({ ok: true, passed: true });
    expect(batch.pids).not.toContain(first);
    expect(alive(first!)).toBe(false);
  });

  it('cancel kills every process at once: the open and queued traces answer cancelled', async () => {
    const { good } = stubTraces();
    const abort = new AbortController();
    const batch = open({ workers: 2, timeoutMs: 600_000, signal: abort.signal });
    await Promise.all([batch.grade(taskDir('T900_stub'), good), batch.grade(taskDir('T900_stub'), good)]);
    const pids = batch.pids;
    expect(pids).toHaveLength(2);
    const open3 = [0, 1, 2].map(() => batch.grade(taskDir('T902_hang'), EMPTY));
    abort.abort();
    for (const r of await Promise.all(open3)) expect(r).toMatchObject({ ok: false, stage: 'cancelled' });
    await batch.close();
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(await batch.grade(taskDir('T900_stub'), good)).toMatchObject({ ok: false, stage: 'cancelled' });
  });
});

/** Whether a process id is still running (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
