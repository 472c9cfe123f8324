import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const T011 = path.join(CLAW_ROOT, 'tasks/T011zh_expense_report');

describe.skipIf(!hasCorpus)('editing a fixture cell', () => {
  it('changes only that field, keeps Python float text elsewhere, and saves a new version', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [T011] });
    const before = await ok(core, 'tasks.fixtureRows', { taskId: 'T011zh_expense_report', service: 'finance' });
    expect(before.rows[0]!.amount).toBe('328.0'); // a float in the fixture stays a float
    const r = await ok(core, 'tasks.updateFixtureCell', {
      taskId: 'T011zh_expense_report',
      service: 'finance',
      index: 0,
      field: 'description',
      value: '"Edited"',
    });
    expect(r.version).toBe(2);
    const after = await ok(core, 'tasks.fixtureRows', { taskId: 'T011zh_expense_report', service: 'finance' });
    expect(after.rows[0]).toEqual({ ...before.rows[0], description: '"Edited"' });
    expect(after.rows.slice(1)).toEqual(before.rows.slice(1));
    const versions = await ok(core, 'tasks.versions', { taskId: 'T011zh_expense_report' });
    expect(versions.map((v) => [v.version, v.reason.split(' ')[0]])).toEqual([
      [2, 'edit'],
      [1, 'import'],
    ]);
    // The edited fixture is what the environment serves.
    const replay = await ok(core, 'env.replay', {
      taskId: 'T011zh_expense_report',
      callsJsonl: '{"tool": "finance_get_transaction", "args": {"transaction_id": "txn_001"}}',
      clock: '2026-03-05T09:00:00Z',
    });
    expect(replay.dispatches[0]!.text).toContain('"description": "Edited"');
    expect(replay.dispatches[0]!.text).toContain('"amount": 328.0');
    await core.close();
  });

  it('refuses a value that breaks the record schema or is not JSON, and writes nothing', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [T011] });
    const e1 = await fail(core, 'tasks.updateFixtureCell', {
      taskId: 'T011zh_expense_report',
      service: 'finance',
      index: 1,
      field: 'transaction_id',
      value: '',
    });
    expect(e1).toMatchObject({ code: 'INVALID_INPUT' });
    expect(e1.message).toMatch(
      /record 2 · transaction_id: transaction_id is required and cannot be empty; nothing was saved/,
    );
    const e2 = await fail(core, 'tasks.updateFixtureCell', {
      taskId: 'T011zh_expense_report',
      service: 'finance',
      index: 1,
      field: 'amount',
      value: 'lots',
    });
    expect(e2.message).toMatch(/not valid JSON.*nothing was saved/);
    const e3 = await fail(core, 'tasks.updateFixtureCell', {
      taskId: 'T011zh_expense_report',
      service: 'finance',
      index: 999,
      field: 'amount',
      value: '1',
    });
    expect(e3).toMatchObject({ code: 'NOT_FOUND' });
    expect(e3.message).toMatch(/record 1000 of finance's fixture was deleted by another writer/);
    expect((await ok(core, 'tasks.get', { taskId: 'T011zh_expense_report' })).row.version).toBe(1);
    await core.close();
  });
});
