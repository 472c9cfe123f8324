import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { openDb, readHandle, type Db } from '../../src/main/core/db/sqlite';
import { compilePrefixPattern, preselect, readLights } from '../../src/main/core/export/sft/preselect';
import { RedactionTally, workspaceSftRecords } from '../../src/main/core/export/workspace/sft-records';
import { SftOptions } from '../../src/shared/contract/entities/export';
import { SftSelection } from '../../src/shared/contract/export.contract';
import { tempDir } from '../helpers/test-core';

/**
 * Issue 18 item 5: a task's pool (curation's `set pool`) chooses the rule its records are judged by; the export's
 * pool only narrows the selection to that pool's tasks. Before, every record got the export's single pool.
 */
const NOW = '2026-03-01T09:00:00.000Z';

/** Two tasks with the same rewards (0.6, 0.9): `mail` stays in mixed (≥ 0.5), `ops` moves to multi_service (≥ 0.8). */
async function workspace(): Promise<Db> {
  const file = path.join(tempDir('task-pools-'), 'w.coworkenv.db');
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
  const db = openDb(file);
  db.prepare("INSERT INTO collections (name, created_at, updated_at) VALUES ('bench', ?, ?)").run(NOW, NOW);
  const insert = db.prepare(
    `INSERT INTO trajectories (task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id,
       trial, collection, external, valid, superseded, message_count, tool_call_count, char_count, completion,
       score, graded, created_at)
     VALUES (?, ?, ?, 'm', 'm', 'run', 'studio', ?, ?, 'bench', 0, 1, 0, 6, 0, 100, ?, ?, 1, ?)`,
  );
  let n = 0;
  for (const task of ['mail', 'ops'])
    for (const [trial, r] of [0.6, 0.9].entries())
      insert.run(task, `t${n}`, `${n++}`.padStart(64, '0'), task, trial, r, r, NOW);
  db.close();
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close(); // settles the tasks' curation rows
  const w = openDb(file);
  w.prepare("UPDATE curation_tasks SET bucket = 'KEEP'").run();
  w.prepare("UPDATE curation_tasks SET pool = 'multi_service_safety' WHERE task_id = 'ops'").run();
  return w;
}

function judged(db: Db, selection: Record<string, unknown>) {
  const s = SftSelection.parse(selection);
  const records = workspaceSftRecords(readHandle(db), s, new RedactionTally());
  const { table, supersedes } = readLights(records, compilePrefixPattern('x^'));
  const { verdicts } = preselect(table, supersedes, SftOptions.parse({}));
  return Object.fromEntries(
    Array.from({ length: table.size }, (_, i) => {
      const l = table.light(i);
      return [`${l.taskId}/${l.reward}`, verdicts.get(i)?.reason ?? 'kept'];
    }),
  );
}

describe("a record is judged by its own task's pool", () => {
  it('every pool: mixed keeps 0.6, multi_service_safety rejects it', async () => {
    const db = await workspace();
    try {
      expect(judged(db, {})).toEqual({
        'mail/0.6': 'kept',
        'mail/0.9': 'kept',
        'ops/0.6': 'below_threshold',
        'ops/0.9': 'kept',
      });
      // The export's pool is a filter: only that pool's tasks, still by their rule.
      expect(judged(db, { pool: 'multi_service_safety' })).toEqual({ 'ops/0.6': 'below_threshold', 'ops/0.9': 'kept' });
      expect(judged(db, { pool: 'mixed' })).toEqual({ 'mail/0.6': 'kept', 'mail/0.9': 'kept' });
    } finally {
      db.close();
    }
  });
});
