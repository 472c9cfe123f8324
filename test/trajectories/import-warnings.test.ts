import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { messagesRow, writeJsonl } from '../helpers/tau-records';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';
import { allRows, importFiles } from '../helpers/trajectory-import';

const warned = [
  { field: 'warnings' as const, operator: 'AND' as const, conditions: [{ op: 'greaterThan' as const, value: 0 }] },
];

/**
 * Issue 17: bulk imports kept a prepared record's row and dropped its warnings ("not graded: a call
 * has no result", "graded against another task's checks"). They are stored with the trajectory,
 * counted by the import (job result, CLI), filterable in the grid and shown by trajectories.get.
 */
describe('per-record warnings of an import', () => {
  let core: Core;
  let ws: string;
  let task: string;
  const dir = tempDir('import-warnings-');
  beforeAll(() => {
    const [spec] = generatedTasks(1);
    task = spec!.task_id;
    ({ core, workspacePath: ws } = runWorkspace([spec!]));
  });
  afterAll(() => core?.close());

  it('keeps "not graded: a call has no result" with the record and counts it (CLI and job result)', async () => {
    const unanswered = messagesRow({ task, trial: 0, reward: 1 });
    unanswered.messages.splice(3, 0, {
      role: 'assistant',
      content: null as unknown as string,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
    } as (typeof unanswered.messages)[number]);
    const file = writeJsonl(dir, 'one.jsonl', [unanswered, messagesRow({ task: 'elsewhere', trial: 0, reward: 1 })]);
    const r = await runCliCaptured(['--workspace', ws, 'trajectories', 'import', file, '--collection', 'cli']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 records, 2 stored, 0 duplicates, 0 refused, 1 with warnings');
    expect(r.stdout).toMatch(/2 stored \(0 graded, 1 of tasks not in the workspace\), .*, 1 stored with warnings;/);
    const [row] = await allRows(core, warned);
    expect(row).toMatchObject({ task_id: task, graded: false, warnings: 1 });
    const got = await ok(core, 'trajectories.get', { id: row!.id });
    expect(got.warnings).toEqual([expect.stringMatching(/^not graded: a tool call has no result/)]);
  });

  it("keeps the grader's warning of a record graded against another task's checks (--task)", async () => {
    const file = writeJsonl(dir, 'two.jsonl', [
      messagesRow({ task: 'their-own-task', trial: 0, reward: 1 }),
      messagesRow({ task: 'their-own-task', trial: 1, reward: 0 }),
    ]);
    const result = await importFiles(core, { paths: [file], collection: 'named', taskId: task });
    expect(result).toMatchObject({ stored: 2, graded: 2, warned: 2 });
    expect(result.files[0]).toMatchObject({ stored: 2, warned: 2 });
    const rows = await allRows(core, [
      { field: 'collection', operator: 'AND', conditions: [{ op: 'equals', value: 'named' }] },
    ]);
    for (const row of rows) {
      // …and that a messages row has no audit snapshot for the task's audit checks: the count is the texts'.
      const { warnings } = await ok(core, 'trajectories.get', { id: row.id });
      expect(warnings).toEqual([
        `the trace is a run of task their-own-task, graded here against the checks of ${task}`,
        expect.stringMatching(/^the trace has no audit_snapshot of /),
      ]);
      expect(row.warnings).toBe(2);
    }
  });

  it('the grid filters on the count (has warnings; a set filter of counts) and clean rows have none', async () => {
    expect((await allRows(core, warned)).length).toBe(3);
    const values = await ok(core, 'trajectories.values', { field: 'warnings' });
    expect(values.values.map((v) => [v.value, v.count])).toEqual([
      [0, 1],
      [1, 1],
      [2, 2],
    ]);
    const set = await ok(core, 'trajectories.list', {
      filters: [{ field: 'warnings', operator: 'AND', conditions: [{ op: 'in', values: ['0'] }] }],
    });
    expect(set.rows.map((r) => r.task_id)).toEqual(['elsewhere']);
    expect((await ok(core, 'trajectories.get', { id: set.rows[0]!.id })).warnings).toEqual([]);
  });
});
