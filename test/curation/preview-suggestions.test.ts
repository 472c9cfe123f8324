import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok } from '../helpers/call';
import { curationWorkspace } from '../helpers/curation-fill';
import { createTestCore, tempDir } from '../helpers/test-core';

/** Issue 21 item 6: what a bulk change will do is known before it is done; suggestions never overwrite a choice. */
describe('curation.preview and applySuggestions over assigned buckets', () => {
  let core: Core;
  let suggested: { task_id: string; suggested: string | null }[];
  beforeAll(async () => {
    const file = path.join(tempDir(), 'preview.coworkenv.db');
    await curationWorkspace(file, { tasks: 60, perTask: 3 });
    core = createTestCore({ workspacePath: file }).core;
    await ok(core, 'curation.assign', { bucket: null, select: { all: true }, reason: 'start empty' });
    suggested = (await ok(core, 'curation.tasks', { limit: 1000 })).rows.filter((r) => r.suggested !== null);
    expect(suggested.length).toBeGreaterThan(6);
  }, 60_000);
  afterAll(() => core?.close());

  it('assign: the count of tasks that will change and of buckets it replaces, nothing written', async () => {
    const ids = suggested.slice(0, 4).map((r) => r.task_id);
    await ok(core, 'curation.assign', { bucket: 'TRIVIAL', select: { tasks: ids.slice(0, 1) }, reason: 'one' });
    const v = await ok(core, 'curation.preview', { action: 'assign', value: 'KEEP', select: { tasks: ids } });
    expect(v).toEqual({ selected: 4, changed: 4, replaced: 1, keptAssigned: 0 });
    const rows = (await ok(core, 'curation.tasks', { limit: 1000 })).rows.filter((r) => ids.includes(r.task_id));
    expect(rows.filter((r) => r.bucket === 'KEEP')).toEqual([]);
  });

  it('suggestions fill empty buckets and leave 6 manual choices alone unless asked to replace them', async () => {
    const manual = suggested.slice(0, 6).map((r) => r.task_id);
    const other = (b: string | null) => (b === 'KEEP' ? 'TRIVIAL' : 'KEEP');
    for (const r of suggested.slice(0, 6))
      await ok(core, 'curation.assign', { bucket: other(r.suggested), select: { tasks: [r.task_id] }, reason: 'me' });
    const v = await ok(core, 'curation.preview', { action: 'suggest', select: { all: true } });
    expect(v.keptAssigned).toBe(6);
    expect(v.replaced).toBe(0);
    const r = await ok(core, 'curation.applySuggestions', { select: { all: true }, reason: 'rules' });
    expect(r.changed).toBe(v.changed);
    const rows = new Map((await ok(core, 'curation.tasks', { limit: 1000 })).rows.map((x) => [x.task_id, x]));
    for (const s of suggested.slice(0, 6)) expect(rows.get(s.task_id)!.bucket).toBe(other(s.suggested));
    for (const s of suggested.slice(6)) expect(rows.get(s.task_id)!.bucket).toBe(s.suggested);
    const replace = await ok(core, 'curation.preview', {
      action: 'suggest',
      select: { tasks: manual },
      replaceAssigned: true,
    });
    expect(replace).toMatchObject({ changed: 6, replaced: 6 });
  });
});
