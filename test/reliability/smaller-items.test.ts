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
