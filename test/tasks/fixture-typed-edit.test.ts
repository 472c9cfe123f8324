import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { fail, ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { clawTaskIds, figure } from '../helpers/shared-data';
import { createTestCore } from '../helpers/test-core';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const T019 = 'T019zh_inventory_check';
/**
 * T019zh is valid before and after these fixture edits: its safety rule (`wrong_order`) is re-read from the edited
 * products (issue 19). What an edit re-validates and must keep passing is services_records.
 */
const T019_STATUS = 'valid';
const recordsVerdict = async (core: Core, taskId: string) =>
  (await ok(core, 'validation.report', { taskId })).rounds
    .at(-1)!
    .verdicts.find((v) => v.validator === 'services_records')!.status;
const T002 = 'T002_email_triage';

let core: Core;
beforeEach(async () => {
  ({ core } = createTestCore());
  if (hasCorpus)
    await ok(core, 'tasks.import', {
      paths: [path.join(CLAW_ROOT, 'tasks', T019), path.join(CLAW_ROOT, 'tasks', T002)],
    });
});
afterEach(() => core.close());

const edit = (taskId: string, service: string, index: number, field: string, value: string, expected?: string | null) =>
  core.dispatch('tasks.updateFixtureCell', {
    taskId,
    service,
    index,
    field,
    value,
    ...(expected === undefined ? {} : { expected }),
  });
const cellOf = async (taskId: string, service: string, index: number, field: string) =>
  (await ok(core, 'tasks.fixtureRows', { taskId, service })).rows[index]![field];
const version = async (taskId: string) => (await ok(core, 'tasks.get', { taskId })).row.version;

describe.skipIf(!hasCorpus)('fixture edits keep each column’s type (bug 1)', () => {
  it('describes columns from the record schema: counts, enums, dates, the key', async () => {
    const inv = await ok(core, 'tasks.fixtureRows', { taskId: T019, service: 'inventory' });
    const col = (n: string) => inv.columnTypes.find((c) => c.name === n)!;
    expect(col('current_stock')).toMatchObject({ type: 'integer', min: 0 });
    expect(col('unit_price')).toMatchObject({ type: 'number', min: 0 });
    expect(col('product_id')).toMatchObject({ type: 'string', key: true, required: true });
    expect(inv.key).toBe('product_id');
    const mail = await ok(core, 'tasks.fixtureRows', { taskId: T002, service: 'gmail' });
    expect(mail.columnTypes.find((c) => c.name === 'is_read')).toMatchObject({ type: 'boolean' });
    expect(mail.columnTypes.find((c) => c.name === 'date')).toMatchObject({ type: 'date' });
    expect(mail.columnTypes.find((c) => c.name === 'from')).toMatchObject({ type: 'string', format: 'email' });
  });

  it('refuses "7", 12.5, -3 as stock count, duplicate product_id, an emptied message_id, sender "maybe"', async () => {
    const refused: [string, string, number, string, string, RegExp][] = [
      [T019, 'inventory', 0, 'current_stock', '"7"', /whole number ≥ 0/],
      [T019, 'inventory', 0, 'current_stock', '12.5', /whole number ≥ 0/],
      [T019, 'inventory', 0, 'current_stock', '-3', /must be ≥ 0/],
      [T019, 'inventory', 1, 'product_id', '"SKU-001"', /product_id "SKU-001" is already used by record 1/],
      [T002, 'gmail', 0, 'message_id', '', /message_id is required and cannot be empty/],
      [T002, 'gmail', 0, 'message_id', '""', /message_id is required and cannot be empty/],
      [T002, 'gmail', 0, 'from', '"maybe"', /an email address/],
      [T002, 'gmail', 0, 'is_read', 'maybe', /is_read is true or false/],
      [T002, 'gmail', 0, 'date', '"next tuesday"', /a date/],
    ];
    for (const [task, svc, i, field, value, message] of refused) {
      const r = await edit(task, svc, i, field, value);
      expect(r.ok, `${field} = ${value}`).toBe(false);
      if (!r.ok) expect(r.error.message, `${field} = ${value}`).toMatch(message);
    }
    expect([await version(T019), await version(T002)]).toEqual([1, 1]);
    expect(await cellOf(T019, 'inventory', 0, 'current_stock')).toBe('3');
  });

  it('a valid edit keeps the type (a float column stays float) and re-runs the validators', async () => {
    const r1 = await ok(core, 'tasks.updateFixtureCell', {
      taskId: T019,
      service: 'inventory',
      index: 0,
      field: 'current_stock',
      value: '7',
    });
    expect(r1).toMatchObject({ version: 2, status: T019_STATUS });
    expect(await recordsVerdict(core, T019)).toBe('pass');
    await ok(core, 'tasks.updateFixtureCell', {
      taskId: T019,
      service: 'inventory',
      index: 0,
      field: 'unit_price',
      value: '300',
    });
    expect(await cellOf(T019, 'inventory', 0, 'unit_price')).toBe('300.0');
    const report = await ok(core, 'validation.report', { taskId: T019 });
    expect(report.status).toBe(T019_STATUS);
    expect(await recordsVerdict(core, T019)).toBe('pass');
    expect(report.rounds.map((r) => r.version)).toEqual([2, 3]);
  });
});

describe.skipIf(!hasCorpus)('versions: history, diff and revert (bug 2)', () => {
  it('diffs a version against the one before by record key, and reverts as a new version', async () => {
    await ok(core, 'tasks.updateFixtureCell', {
      taskId: T019,
      service: 'inventory',
      index: 2,
      field: 'name',
      value: '"Stand"',
    });
    await ok(core, 'tasks.updateFixtureCell', {
      taskId: T019,
      service: 'inventory',
      index: 2,
      field: 'current_stock',
      value: '40',
    });
    const d = await ok(core, 'tasks.versionDiff', { taskId: T019, version: 3 });
    expect(d.against).toBe(2);
    expect(d.fixtures).toEqual([
      {
        service: 'inventory',
        env: 'INVENTORY_FIXTURES',
        added: [],
        removed: [],
        changed: [{ record: 3, key: 'SKU-003', field: 'current_stock', before: '12', after: '40' }],
      },
    ]);
    const r = await ok(core, 'tasks.revert', { taskId: T019, version: 1 });
    expect(r).toEqual({
      version: 4,
      status: T019_STATUS,
      checksRestored: false,
      regraded: 0,
      changed: 0,
      meanBefore: null,
      meanAfter: null,
    });
    expect(await cellOf(T019, 'inventory', 2, 'current_stock')).toBe('12');
    const all = await ok(core, 'tasks.versionDiff', { taskId: T019, version: 4, against: 3 });
    expect(all.fixtures[0]!.changed.map((c) => c.field).sort()).toEqual(['current_stock', 'name']);
    const versions = await ok(core, 'tasks.versions', { taskId: T019 });
    expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions[0]!.reason).toBe('revert to version 1');
    expect((await fail(core, 'tasks.revert', { taskId: T019, version: 4 })).message).toMatch(/already equal/);
  });
});

describe.skipIf(!hasCorpus)('undo of a fixture edit never overwrites another writer (bug 5)', () => {
  it('refuses with CONFLICT when the cell holds something else than the undo expects', async () => {
    await ok(core, 'tasks.updateFixtureCell', {
      taskId: T019,
      service: 'inventory',
      index: 0,
      field: 'name',
      value: '"Mine"',
    });
    await ok(core, 'tasks.updateFixtureCell', {
      taskId: T019,
      service: 'inventory',
      index: 0,
      field: 'name',
      value: '"Theirs"',
    });
    const undo = await edit(T019, 'inventory', 0, 'name', '"无线蓝牙耳机 Pro"', '"Mine"');
    expect(undo.ok).toBe(false);
    if (!undo.ok)
      expect(undo.error).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/changed by another writer \(now "Theirs"\)/),
      });
    expect(await cellOf(T019, 'inventory', 0, 'name')).toBe('"Theirs"');
    const good = await edit(T019, 'inventory', 0, 'name', '"无线蓝牙耳机 Pro"', '"Theirs"');
    expect(good.ok).toBe(true);
  });
});

describe.skipIf(!hasCorpus)('importing the tasks folder of a Claw-Eval root', () => {
  it('takes …/tasks as its root’s tasks folder', async () => {
    const { core: c2 } = createTestCore();
    const r = await ok(c2, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks')] });
    expect(r.counts).toMatchObject({ imported: figure(44, () => clawTaskIds().length), errors: 0 });
    await c2.close();
  });
});
