import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { SERVICE_IDS, type Slot } from '../../src/shared/contract/entities/slot';
import { allSlots, ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

const cores: Core[] = [];
const newCore = (opts: Parameters<typeof createTestCore>[0] = {}) => {
  const { core } = createTestCore(opts);
  cores.push(core);
  return core;
};
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** What a demo plan must cover (DESIGN.md §7 and the plan.loadDemo summary). */
function expectDemoCoverage(slots: Slot[]) {
  expect(slots.length).toBeGreaterThanOrEqual(24);
  expect(new Set(slots.flatMap((s) => s.services))).toEqual(new Set(SERVICE_IDS));
  expect(new Set(slots.map((s) => s.language))).toEqual(new Set(['en', 'zh']));
  expect(SERVICE_IDS).toHaveLength(13);
}

describe('plan.stats', () => {
  it('is all zeros on an empty plan', async () => {
    expect(await ok(newCore(), 'plan.stats', {})).toEqual({
      slots: 0,
      plannedTasks: 0,
      byService: {},
      byDifficulty: {},
      byLanguage: {},
    });
  });

  it('sums planned tasks overall and per service, difficulty and language', async () => {
    const core = newCore();
    await ok(core, 'plan.create', {
      rows: [
        slotInput({ services: ['gmail', 'calendar'], difficulty: 'easy', language: 'en', target_count: 3 }),
        slotInput({ services: ['gmail'], difficulty: 'hard', language: 'zh', target_count: 5 }),
        slotInput({ services: ['crm'], difficulty: 'hard', language: 'en', target_count: 0 }),
        slotInput({ services: ['calendar', 'todo'], difficulty: 'medium', language: 'zh', target_count: 10 }),
      ],
    });
    expect(await ok(core, 'plan.stats', {})).toEqual({
      slots: 4,
      plannedTasks: 18,
      byService: { gmail: 8, calendar: 13, crm: 0, todo: 10 },
      byDifficulty: { easy: 3, hard: 5, medium: 10 },
      byLanguage: { en: 3, zh: 15 },
    });
  });

  it('follows edits and deletions', async () => {
    const core = newCore();
    await ok(core, 'plan.create', { rows: [slotInput({ target_count: 2 }), slotInput({ target_count: 4 })] });
    await ok(core, 'plan.update', { edits: [{ id: 1, field: 'target_count', value: 10 }] });
    await ok(core, 'plan.delete', { ids: [2] });
    expect(await ok(core, 'plan.stats', {})).toMatchObject({ slots: 1, plannedTasks: 10, byService: { gmail: 10 } });
  });
});

describe('the demo plan', () => {
  it('plan.loadDemo adds 24+ slots over all 13 services in both languages', async () => {
    const core = newCore();
    const { slots } = await ok(core, 'plan.loadDemo', {});
    expectDemoCoverage(slots);
    expect(await allSlots(core)).toEqual(slots);
    const stats = await ok(core, 'plan.stats', {});
    expect(stats.slots).toBe(slots.length);
    expect(stats.plannedTasks).toBe(slots.reduce((a, s) => a + s.target_count, 0));
    expect(Object.keys(stats.byService).sort()).toEqual([...SERVICE_IDS].sort());
  });

  it('a new workspace created with seedDemo holds it, stamped with the clock', async () => {
    const core = newCore({ seedDemo: true });
    const slots = await allSlots(core);
    expectDemoCoverage(slots);
    expect(new Set(slots.map((s) => s.created_at))).toEqual(new Set(['2026-03-01T09:00:00.000Z']));
    expect(await ok(core, 'workspace.info', {})).toMatchObject({
      createdAt: '2026-03-01T09:00:00.000Z',
      counts: { slots: slots.length, jobs: 0, tasks: 0, trajectories: 0 },
    });
  });

  it('a new workspace without seedDemo is empty, and reopening never seeds it', async () => {
    const { core, workspacePath } = createTestCore();
    expect(await allSlots(core)).toEqual([]);
    await core.close();
    const again = newCore({ workspacePath, seedDemo: true });
    expect(await allSlots(again)).toEqual([]);
  });
});
