import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

describe('plan vs actual', () => {
  it('plan rows carry generated / valid / discarded; the coverage cells sum targets and valid tasks', async () => {
    const { core } = createTestCore();
    cores.push(core);
    const { slots } = await ok(core, 'plan.create', {
      rows: [
        slotInput({ services: ['helpdesk', 'crm'], category: 'support', scenario: 'cross_service', target_count: 3 }),
        slotInput({ services: ['crm'], category: 'support', language: 'zh', target_count: 2 }),
        slotInput({ services: ['gmail'], category: 'mail', difficulty: 'hard', target_count: 4 }),
      ],
    });
    const [a, b, c] = slots.map((s) => s.id) as [number, number, number];
    const before = await ok(core, 'plan.list', { limit: 10 });
    expect(before.rows.map((r) => [r.generated, r.valid, r.discarded])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const { jobId } = await ok(core, 'generation.run', { slots: { ids: [a, b] }, seed: 1 });
    await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    const after = await ok(core, 'plan.list', { limit: 10 });
    expect(after.rows.map((r) => [r.id, r.target_count, r.generated, r.valid, r.discarded])).toEqual([
      [a, 3, 3, 3, 0],
      [b, 2, 2, 2, 0],
      [c, 4, 0, 0, 0],
    ]);
    const cov = await ok(core, 'generation.coverage', {});
    const byKey = (cells: { row: string; col: string }[]) =>
      Object.fromEntries(cells.map(({ row, col, ...rest }) => [`${row}|${col}`, rest]));
    expect(byKey(cov.servicesByCategory)).toEqual({
      'helpdesk|support': { slots: 1, planned: 3, valid: 3 },
      'crm|support': { slots: 2, planned: 5, valid: 5 },
      'gmail|mail': { slots: 1, planned: 4, valid: 0 },
    });
    expect(byKey(cov.difficultyByLanguage)).toEqual({
      'easy|en': { slots: 1, planned: 3, valid: 3 },
      'easy|zh': { slots: 1, planned: 2, valid: 2 },
      'hard|en': { slots: 1, planned: 4, valid: 0 },
    });
  });
});
