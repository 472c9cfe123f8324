import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { fail, ok, slotInput } from '../helpers/call';
import { isTableChange, nextEvent, recordEvents } from '../helpers/events';
import { createTestCore, REPO_ROOT } from '../helpers/test-core';

const BUILT_CLI = path.join(REPO_ROOT, 'out/main/cli.js');
const cores: Core[] = [];
const newCore = (opts: Parameters<typeof createTestCore>[0] = {}) => {
  const made = createTestCore({ watchIntervalMs: 20, ...opts });
  cores.push(made.core);
  return made;
};
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

describe('events from this core', () => {
  it('a mutation emits table.changed with the ids it touched, after commit', async () => {
    const { core } = newCore();
    const rec = recordEvents(core.events);
    await ok(core, 'plan.create', { rows: [slotInput(), slotInput()] });
    await ok(core, 'plan.update', { edits: [{ id: 2, field: 'notes', value: 'x' }] });
    await ok(core, 'plan.delete', { ids: [1] });
    expect(rec.list).toEqual([
      { event: 'table.changed', payload: { table: 'coverage_slots', ids: [1, 2] } },
      { event: 'table.changed', payload: { table: 'coverage_slots', ids: [2] } },
      { event: 'table.changed', payload: { table: 'coverage_slots', ids: [1] } },
    ]);
  });

  it('queries and failed mutations emit nothing', async () => {
    const { core } = newCore();
    await ok(core, 'plan.create', { rows: [slotInput()] });
    const rec = recordEvents(core.events);
    await ok(core, 'plan.list', {});
    await ok(core, 'plan.stats', {});
    await fail(core, 'plan.update', { edits: [{ id: 1, field: 'difficulty', value: 'extreme' }] });
    await fail(core, 'plan.delete', { ids: [99] });
    expect(rec.list).toEqual([]);
  });

  it('a listener that throws does not stop the others', async () => {
    const { core } = newCore();
    core.events.on(() => {
      throw new Error('broken subscriber');
    });
    const seen = nextEvent(core.events, isTableChange('coverage_slots'));
    await ok(core, 'plan.create', { rows: [slotInput()] });
    expect((await seen).payload).toEqual({ table: 'coverage_slots', ids: [1] });
  });
});

describe('changes made by other connections', () => {
  it('a write by another core on the same file is noticed and emitted as table.changed', async () => {
    const { core, workspacePath } = newCore();
    const { core: other } = newCore({ workspacePath, watchIntervalMs: 0 });
    const seen = nextEvent(core.events, isTableChange('coverage_slots'));
    await ok(other, 'plan.create', { rows: [slotInput({ family: 'from-elsewhere' })] });
    expect((await seen).payload).toEqual({ table: 'coverage_slots' });
    expect((await ok(core, 'plan.list', {})).rows.map((r) => r.family)).toEqual(['from-elsewhere']);
  });

  it('a write by another process (the built CLI) is noticed', async (ctx) => {
    if (!fs.existsSync(BUILT_CLI)) return ctx.skip('out/main/cli.js is not built (npm run build)');
    const { core, workspacePath } = newCore();
    const seen = nextEvent(core.events, isTableChange('coverage_slots'));
    const input = JSON.stringify({ rows: [slotInput({ family: 'from-the-cli' })] });
    const { stdout } = await promisify(execFile)(process.execPath, [
      path.join(REPO_ROOT, 'bin/coworkenv.js'),
      '--json',
      '--workspace',
      workspacePath,
      'call',
      'plan.create',
      '--input',
      input,
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, data: { slots: [{ id: 1, family: 'from-the-cli' }] } });
    expect((await seen).payload).toEqual({ table: 'coverage_slots' });
    expect((await ok(core, 'plan.get', { id: 1 })).family).toBe('from-the-cli');
  });
});
