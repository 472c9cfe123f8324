import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore, tempDir } from '../helpers/test-core';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASK = 'T011zh_expense_report';
const at = { taskId: TASK, service: 'finance' };

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/**
 * Upstream loads fixtures with Python's json: a field named like a member of Object.prototype is a dict key as any
 * other. Here `in` and plain lookups found Object.prototype's members in every record (the fixture grid answered
 * INTERNAL, editing a record without the field crashed), and copies assigned `__proto__`, dropping that field.
 */
describe.skipIf(!hasCorpus)('fixture fields named like Object.prototype members are plain data', () => {
  it.each(['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'])('%s', async (name) => {
    const root = tempDir('claw-root-');
    fs.cpSync(path.join(CLAW_ROOT, 'tasks', TASK), path.join(root, 'tasks', TASK), { recursive: true });
    const file = path.join(root, 'tasks', TASK, 'fixtures/finance/transactions.json');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text.replace('"transaction_id": "txn_001",', `"transaction_id": "txn_001", "${name}": "a",`),
    );
    const { core } = createTestCore({ seedDemo: false });
    cores.push(core);
    const imported = await ok(core, 'tasks.import', { paths: [root] });
    expect(imported.outcomes[0]).toMatchObject({ status: 'imported', errors: [] });

    // The grid: a column of its own, typed by its values, present in record 1 and absent from the others.
    const rows = await ok(core, 'tasks.fixtureRows', at);
    expect(rows.columns[1]).toBe(name);
    expect(rows.columnTypes[1]).toMatchObject({ name, type: 'string', required: false, key: false });
    expect(rows.rows[0]![name]).toBe('"a"');
    expect(Object.hasOwn(rows.rows[1]!, name)).toBe(false);

    // Edits: the record that has it, and one that does not yet.
    await ok(core, 'tasks.updateFixtureCell', { ...at, index: 0, field: name, value: '"b"', expected: '"a"' });
    const added = await ok(core, 'tasks.updateFixtureCell', { ...at, index: 1, field: name, value: '"c"' });
    // Valid with the new field: services_records passes with it (T011zh's wrong_data rule is read from its data).
    expect(added.status).toBe('valid');
    const verdicts = (await ok(core, 'validation.report', { taskId: TASK })).rounds.at(-1)!.verdicts;
    expect(verdicts.find((v) => v.validator === 'services_records')!.status).toBe('pass');
    expect(verdicts.filter((v) => v.status === 'fail').map((v) => v.validator)).toEqual([]);
    const after = await ok(core, 'tasks.fixtureRows', at);
    expect([after.rows[0]![name], after.rows[1]![name]]).toEqual(['"b"', '"c"']);
    expect(after.rows.slice(2)).toEqual(rows.rows.slice(2));

    // The environment serves it as upstream would, and nothing leaked onto Object.prototype.
    const replay = await ok(core, 'env.replay', {
      taskId: TASK,
      callsJsonl: ['txn_001', 'txn_002']
        .map((id) => JSON.stringify({ tool: 'finance_get_transaction', args: { transaction_id: id } }))
        .join('\n'),
      clock: '2026-03-05T09:00:00Z',
    });
    expect(replay.dispatches.map((d) => d.text)).toEqual([
      expect.stringContaining(`"${name}": "b"`),
      expect.stringContaining(`"${name}": "c"`),
    ]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(typeof ({} as Record<string, unknown>)[name]).not.toBe('string');
  });
});
