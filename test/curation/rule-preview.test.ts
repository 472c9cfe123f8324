import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';
import { fail, ok } from '../helpers/call';
import { curationWorkspace } from '../helpers/curation-fill';
import { createTestCore, tempDir } from '../helpers/test-core';

/** Each task's stored suggestion, read from the table (what setRule leaves after it settles). */
function suggestions(file: string): Map<string, string | null> {
  const db = openDb(file, { readOnly: true });
  try {
    const rows = db.prepare('SELECT task_id, suggested FROM curation_tasks').all() as {
      task_id: string;
      suggested: string | null;
    }[];
    return new Map(rows.map((r) => [r.task_id, r.suggested]));
  } finally {
    db.close();
  }
}

/** The Curation page's rules editor shows what an edit would change before the user applies it. */
describe('curation.previewRule', () => {
  let core: Core;
  let file: string;
  beforeAll(async () => {
    file = path.join(tempDir(), 'preview.coworkenv.db');
    await curationWorkspace(file, { tasks: 120, perTask: 5 });
    core = createTestCore({ workspacePath: file }).core;
  }, 60_000);
  afterAll(() => core?.close());

  it('counts exactly the suggestions setRule then changes, and writes nothing itself', async () => {
    const before = suggestions(file);
    const rules = await ok(core, 'curation.rules', {});
    const edit = { pool: 'mixed', unsolvableBelow: 0.3, trivialMin: 0.8 };
    const p = await ok(core, 'curation.previewRule', edit);
    expect(p.tasks).toBe(before.size);
    expect(p.changed).toBeGreaterThan(0);
    expect(suggestions(file)).toEqual(before);
    expect(await ok(core, 'curation.rules', {})).toEqual(rules);

    await ok(core, 'curation.setRule', { ...edit, reason: 'looser cut-offs' });
    const after = suggestions(file);
    const moved = [...after].filter(([id, s]) => before.get(id) !== s);
    expect(moved.length).toBe(p.changed);
    for (const t of p.transitions) {
      const n = moved.filter(([id, s]) => before.get(id) === t.from && s === t.to).length;
      expect(n, `${t.from} → ${t.to}`).toBe(t.count);
    }
    // The rule now in force previews no change at all.
    expect((await ok(core, 'curation.previewRule', edit)).changed).toBe(0);
  });

  it('counts the assigned buckets the new suggestions would move', async () => {
    await ok(core, 'curation.applySuggestions', { select: { all: true }, reason: 'baseline' });
    const p = await ok(core, 'curation.previewRule', { pool: 'mixed', trivialMin: 0.5 });
    expect(p.assignedDiffer).toBe(p.transitions.filter((t) => t.from && t.to).reduce((n, t) => n + t.count, 0));
    expect(p.assignedDiffer).toBeGreaterThan(0);
  });

  it('refuses an out-of-range threshold, naming the field', async () => {
    const e = await fail(core, 'curation.previewRule', { pool: 'mixed', trivialMin: 1.5 });
    expect(e.code).toBe('INVALID_INPUT');
    expect(JSON.stringify(e.issues)).toContain('trivialMin');
  });
});
