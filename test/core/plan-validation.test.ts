import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { allSlots, fail, ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

let core: Core;
beforeEach(() => {
  ({ core } = createTestCore());
});
afterEach(() => core.close());

const createOne = async (over: Record<string, unknown>) =>
  (await ok(core, 'plan.create', { rows: [slotInput(over)] })).slots[0]!;
const issuePaths = (err: { issues?: { path: (string | number)[] }[] }) =>
  (err.issues ?? []).map((i) => i.path.join('.'));

describe('slot fields: accepted and normalised', () => {
  it('services accepts spreadsheet text and stores a de-duplicated list in catalog order', async () => {
    expect((await createOne({ services: 'gmail, calendar' })).services).toEqual(['gmail', 'calendar']);
    expect((await createOne({ services: 'scheduler;calendar  GMAIL gmail' })).services).toEqual([
      'gmail',
      'calendar',
      'scheduler',
    ]);
    expect((await createOne({ services: ['crm', 'gmail', 'crm'] })).services).toEqual(['gmail', 'crm']);
  });

  it('difficulty, language and scenario are case-insensitive; text is trimmed', async () => {
    const s = await createOne({
      difficulty: ' HARD ',
      language: 'ZH',
      scenario: 'Cross_Service',
      family: '  spaced  ',
    });
    expect(s).toMatchObject({ difficulty: 'hard', language: 'zh', scenario: 'cross_service', family: 'spaced' });
  });

  it('target_count takes text "12" as 12; defaults fill target_count and notes', async () => {
    expect((await createOne({ target_count: '12' })).target_count).toBe(12);
    const { target_count: _t, notes: _n, ...rest } = slotInput();
    const s = (await ok(core, 'plan.create', { rows: [rest] })).slots[0]!;
    expect(s).toMatchObject({ target_count: 1, notes: '' });
  });

  it('reference_date accepts a real calendar date, leap days included', async () => {
    expect((await createOne({ reference_date: '2024-02-29' })).reference_date).toBe('2024-02-29');
  });
});

describe('slot fields: rejected with a path to the row and field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown service', { services: 'gmail, slack' }, 'rows.0.services'],
    ['no service', { services: '' }, 'rows.0.services'],
    ['unknown difficulty', { difficulty: 'extreme' }, 'rows.0.difficulty'],
    ['unknown language', { language: 'fr' }, 'rows.0.language'],
    ['unknown scenario', { scenario: 'chaos' }, 'rows.0.scenario'],
    ['30 February', { reference_date: '2026-02-30' }, 'rows.0.reference_date'],
    ['month 13', { reference_date: '2026-13-01' }, 'rows.0.reference_date'],
    ['29 February of a common year', { reference_date: '2026-02-29' }, 'rows.0.reference_date'],
    ['not zero-padded', { reference_date: '2026-3-2' }, 'rows.0.reference_date'],
    ['negative count', { target_count: -1 }, 'rows.0.target_count'],
    ['fractional count', { target_count: 1.5 }, 'rows.0.target_count'],
    ['count as words', { target_count: 'twelve' }, 'rows.0.target_count'],
    ['empty family', { family: '   ' }, 'rows.0.family'],
    ['category too long', { category: 'c'.repeat(61) }, 'rows.0.category'],
  ];
  for (const [what, over, path] of cases) {
    it(what, async () => {
      const err = await fail(core, 'plan.create', { rows: [slotInput(over)] });
      expect(err.code).toBe('INVALID_INPUT');
      expect(
        issuePaths(err).some((p) => p.startsWith(path)),
        `${issuePaths(err)}`,
      ).toBe(true);
      expect(err.message).toContain(path.split('.').pop()!);
      expect(await allSlots(core)).toEqual([]);
    });
  }

  it('one invalid row in a batch writes nothing, and the issue names its index', async () => {
    await createOne({ family: 'existing' });
    const before = await allSlots(core);
    const err = await fail(core, 'plan.create', {
      rows: [slotInput(), slotInput(), slotInput({ reference_date: '2026-02-30' }), slotInput()],
    });
    expect(err.code).toBe('INVALID_INPUT');
    expect(issuePaths(err)).toEqual(['rows.2.reference_date']);
    expect(await allSlots(core)).toEqual(before);
  });
});

describe('procedure inputs', () => {
  it('an unknown procedure is UNKNOWN_PROCEDURE', async () => {
    const err = await fail(core, 'plan.explode', {});
    expect(err.code).toBe('UNKNOWN_PROCEDURE');
    expect(err.message).toContain('plan.explode');
    expect((await fail(core, 'constructor', {})).code).toBe('UNKNOWN_PROCEDURE');
    expect((await fail(core, '__proto__', {})).code).toBe('UNKNOWN_PROCEDURE');
  });

  it('wrong types are INVALID_INPUT with located issues', async () => {
    const err = await fail(core, 'plan.list', { limit: 'ten', offset: -1 });
    expect(err.code).toBe('INVALID_INPUT');
    expect(issuePaths(err).sort()).toEqual(['limit', 'offset']);
    expect((await fail(core, 'plan.get', { id: 'one' })).issues?.[0]?.path).toEqual(['id']);
    expect((await fail(core, 'plan.get', 42)).code).toBe('INVALID_INPUT');
    expect((await fail(core, 'plan.create', { rows: [] })).issues?.[0]?.path).toEqual(['rows']);
    expect(
      (await fail(core, 'plan.update', { edits: [{ id: 1, field: 'created_at', value: 'x' }] })).issues?.[0]?.path,
    ).toEqual(['edits', 0, 'field']);
  });

  it('a missing input counts as {} where the procedure allows it', async () => {
    expect(await core.dispatch('plan.stats', undefined)).toMatchObject({ ok: true });
    expect(await core.dispatch('workspace.info', null)).toMatchObject({ ok: true });
    expect((await fail(core, 'plan.get', undefined)).code).toBe('INVALID_INPUT');
  });

  it('a missing slot is NOT_FOUND', async () => {
    expect(await fail(core, 'plan.get', { id: 999 })).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('999'),
    });
  });
});
