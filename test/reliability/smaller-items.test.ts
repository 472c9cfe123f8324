import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { SERVICE_IDS } from '../../src/shared/contract/entities/slot';
import { fail, ok } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});
const newCore = () => {
  const made = createTestCore({ seedDemo: false });
  cores.push(made.core);
  return made;
};

describe('plan.generateGrid keeps family names within the slot field (80 characters)', () => {
  it('a family that with its service set passes 80 characters is refused; no slot is written', async () => {
    const { core } = newCore();
    const input = {
      family: 'f'.repeat(60),
      serviceSets: [['gmail'], [...SERVICE_IDS]],
      categories: ['c'],
      referenceDates: ['2026-01-01'],
    };
    const err = await fail(core, 'plan.generateGrid', input);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/family .* 80 characters/);
    expect(err.issues?.[0]?.path).toEqual(['serviceSets', 1]);
    expect((await ok(core, 'plan.list', {})).total).toBe(0);
  });
});

describe('a trace given as text is at most 64 MB, like one record of an import job', () => {
  // 100 MB of dense small numbers took 1.5 GB to import; 256 MB (the old limit) does not fit a 2 GB heap.
  it.each(['trajectories.importTrace', 'grading.gradeTrace'])(
    '%s refuses a longer text naming the limit',
    async (name) => {
      const { core } = newCore();
      const traceJsonl = 'x'.repeat(64 * 1024 * 1024 + 1);
      const err = await fail(core, name, { traceJsonl, taskId: 'T018_ticket_triage' });
      expect(err.code).toBe('INVALID_INPUT');
      expect(err.message).toMatch(/traceJsonl: .*at most 64 MB/);
    },
  );
});
