import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { AnyEvent } from '../../src/shared/contract';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { fail, ok, slotInput } from '../helpers/call';
import { recordEvents } from '../helpers/events';
import { createTestCore, TS_WORKER_CANCEL_BARRIER } from '../helpers/test-core';

const cores: Core[] = [];
const open = (workspacePath?: string, o: Parameters<typeof createTestCore>[0] = {}) => {
  const { core, workspacePath: file } = createTestCore(workspacePath ? { workspacePath, ...o } : o);
  cores.push(core);
  return { core, file };
};
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** Three servable slots (targets 4, 3, 2) and one the library cannot serve (cross-service over one service). */
async function plan(core: Core) {
  const { slots } = await ok(core, 'plan.create', {
    rows: [
      slotInput({
        services: ['helpdesk', 'crm', 'kb'],
        scenario: 'cross_service',
        difficulty: 'hard',
        target_count: 4,
      }),
      slotInput({ services: ['finance', 'gmail'], scenario: 'safety', language: 'zh', target_count: 3 }),
      slotInput({ services: ['todo'], scenario: 'temporal', difficulty: 'medium', target_count: 2 }),
      slotInput({ services: ['gmail'], scenario: 'cross_service', target_count: 5 }),
    ],
  });
  return slots.map((s) => s.id);
}
const wait = async (core: Core, id: string) => ok(core, 'jobs.wait', { id, timeoutMs: 120_000 });
const generated = async (core: Core) =>
  (await ok(core, 'tasks.list', { limit: 500, sort: [{ field: 'task_id', dir: 'asc' }] })).rows;

describe('generation.run', () => {
  it('fills slots below target: valid tasks stored, linked; outcomes counted per slot, problems reported', async () => {
    const { core } = open();
    const [a, b, c, d] = await plan(core);
    const rec = recordEvents(core.events);
    const { jobId } = await ok(core, 'generation.run', { seed: 5 });
    const job = await wait(core, jobId);
    rec.stop();
    expect(job).toMatchObject({ state: 'done', done: 9, total: 9, name: 'generation.run' });
    expect(job.result).toEqual({
      slots: 3,
      candidates: 9,
      validFirstTime: 9,
      repaired: 0,
      discarded: 0,
      problems: [`slot ${d}: the cross_service scenario needs 2–5 services, the slot names 1 (gmail)`],
      perSlot: [
        [a, 4],
        [b, 3],
        [c, 2],
      ].map(([slotId, n]) => ({
        slotId,
        generated: n,
        validFirstTime: n,
        repaired: 0,
        discarded: 0,
        discardReasons: [],
      })),
      stopped: null,
    });
    const progress = rec.list.flatMap((e: AnyEvent) =>
      e.event === 'job.progress' && e.payload.jobId === jobId ? [e.payload] : [],
    );
    expect(progress.at(-1)).toMatchObject({ state: 'done', done: 9, total: 9 });

    const rows = await generated(core);
    expect(rows.map((r) => [r.task_id, r.origin, r.validation_status])).toEqual([
      ...[0, 1, 2, 3].map((i) => [`gen_s${a}_5_0000${i}`, 'generated', 'valid']),
      ...[0, 1, 2].map((i) => [`gen_s${b}_5_0000${i}`, 'generated', 'valid']),
      ...[0, 1].map((i) => [`gen_s${c}_5_0000${i}`, 'generated', 'valid']),
    ]);
    const spec = (await ok(core, 'tasks.get', { taskId: `gen_s${b}_5_00001` })).spec as TaskSpec;
    expect(spec).toMatchObject({ slot_id: b, language: 'zh', scenario: 'safety' });
    expect(await ok(core, 'validation.report', { taskId: `gen_s${b}_5_00001` })).toMatchObject({
      status: 'valid',
      rounds: [{ round: 1, valid: true, diff: '' }],
    });

    const counts = await ok(core, 'generation.slotCounts', {});
    expect(
      counts.slots.map((s) => [s.slotId, s.target, s.validTasks, s.generated, s.validFirstTime, s.discarded]),
    ).toEqual([
      [a, 4, 4, 4, 4, 0],
      [b, 3, 3, 3, 3, 0],
      [c, 2, 2, 2, 2, 0],
      [d, 5, 0, 0, 0, 0],
    ]);
    // Everything is at target: another below-target run has nothing to do.
    const again = await wait(core, (await ok(core, 'generation.run', { seed: 5 })).jobId);
    expect(again).toMatchObject({ state: 'done', total: 0 });
    expect((again.result as { candidates: number }).candidates).toBe(0);
  });

  it('explicit slots and perSlot; a later run with the same seed continues after the indexes used', async () => {
    const { core } = open();
    const [a] = await plan(core);
    await wait(core, (await ok(core, 'generation.run', { slots: { ids: [a!] }, perSlot: 2, seed: 9 })).jobId);
    await wait(core, (await ok(core, 'generation.run', { slots: { ids: [a!] }, perSlot: 2, seed: 9 })).jobId);
    expect((await generated(core)).map((r) => r.task_id)).toEqual([0, 1, 2, 3].map((i) => `gen_s${a}_9_0000${i}`));
    const page = await ok(core, 'generation.candidates', { slotId: a!, limit: 10 });
    expect(page.total).toBe(4);
    expect(page.rows.every((r) => r.outcome === 'valid' && r.rounds.length === 0 && r.generator === 'procedural')).toBe(
      true,
    );
  });

  it('is resumable: cancelled after a batch, resumed, it makes exactly what an uninterrupted run makes', async () => {
    // The barrier's worker holds the job after its first batch (20 of 50) until the cancel is asked: the cancel
    // cannot lose a race with the job's last batches, whatever the machine's speed.
    const one = open(undefined, TS_WORKER_CANCEL_BARRIER);
    const [a, b] = await plan(one.core);
    const ids = { slots: { ids: [a!, b!] }, perSlot: 25, seed: 3 };
    const { jobId } = await ok(one.core, 'generation.run', ids);
    await new Promise<void>((resolve) => {
      const off = one.core.events.on((e: AnyEvent) => {
        if (e.event === 'job.progress' && e.payload.jobId === jobId && e.payload.done > 0) {
          off();
          void ok(one.core, 'jobs.cancel', { id: jobId }).then(() => resolve());
        }
      });
    });
    const cancelled = await wait(one.core, jobId);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.done).toBe(20);
    const committed = (await generated(one.core)).length;
    expect(committed).toBe(cancelled.done);
    const { jobId: resumed } = await ok(one.core, 'jobs.resume', { id: jobId });
    expect(await wait(one.core, resumed)).toMatchObject({ state: 'done', done: 50, total: 50 });

    const two = open();
    await plan(two.core);
    await wait(two.core, (await ok(two.core, 'generation.run', ids)).jobId);
    const specs = async (core: Core) =>
      Promise.all(
        (await generated(core)).map(async (r) =>
          JSON.stringify((await ok(core, 'tasks.get', { taskId: r.task_id })).spec),
        ),
      );
    const [x, y] = [await specs(one.core), await specs(two.core)];
    expect(x).toHaveLength(50);
    expect(x).toEqual(y);
  });

  it('a deleted slot drops its candidate rows and unlinks its tasks; bad requests name the slot', async () => {
    const { core, file } = open();
    const [a, b] = await plan(core);
    await wait(core, (await ok(core, 'generation.run', { slots: { ids: [a!, b!] }, perSlot: 1 })).jobId);
    const links = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT task_id, slot_id FROM tasks ORDER BY task_id').all();
      } finally {
        db.close();
      }
    };
    expect(links()).toEqual([
      { task_id: `gen_s${a}_1_00000`, slot_id: a },
      { task_id: `gen_s${b}_1_00000`, slot_id: b },
    ]);
    await ok(core, 'plan.delete', { ids: [a!] });
    expect(
      (await ok(core, 'generation.slotCounts', { slotIds: [a!, b!] })).slots.map((s) => [s.slotId, s.generated]),
    ).toEqual([[b, 1]]);
    // The task stays, unlinked (its spec still says which slot made it).
    expect(links()).toEqual([
      { task_id: `gen_s${a}_1_00000`, slot_id: null },
      { task_id: `gen_s${b}_1_00000`, slot_id: b },
    ]);
    expect(await fail(core, 'generation.run', { slots: { ids: [b!, 999] } })).toMatchObject({
      code: 'NOT_FOUND',
      message: 'slot 999 not found; nothing was generated',
      issues: [{ path: ['slots', 'ids', 1] }],
    });
    expect((await fail(core, 'generation.run', { generator: 'llm' })).code).toBe('INVALID_INPUT');
    expect((await fail(core, 'generation.candidates', { slotId: 999 })).code).toBe('NOT_FOUND');
  });
});
