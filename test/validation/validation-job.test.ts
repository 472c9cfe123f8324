import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { AnyEvent } from '../../src/shared/contract';
import { fail, ok } from '../helpers/call';
import { recordEvents } from '../helpers/events';
import { CLAW_ROOT } from '../helpers/goldens';
import { clawTaskIds, FULL_DATA, figure } from '../helpers/shared-data';
import { createTestCore, tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';
import { HAND_WRITTEN, workspaceWithHandWritten } from './stored-tasks';
import { validTask } from './valid-task';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const cores: Core[] = [];
const open = (workspacePath?: string) => {
  const { core } = createTestCore(workspacePath ? { workspacePath } : {});
  cores.push(core);
  return core;
};
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});
const progressOf = (list: AnyEvent[], jobId: string) =>
  list.flatMap((e) => (e.event === 'job.progress' && e.payload.jobId === jobId ? [e.payload] : []));

describe('validation procedures on hand-written stored tasks', () => {
  it('validation.run is a worker job: statuses and reports land in the tasks grid, filterable, sortable', async () => {
    const core = open(await workspaceWithHandWritten());
    expect(
      (await ok(core, 'tasks.list', {})).rows.map((r) => [r.task_id, r.validation_status, r.failed_validator]),
    ).toEqual(HAND_WRITTEN.map((id) => [id, 'unvalidated', null]));
    const rec = recordEvents(core.events);
    const { jobId } = await ok(core, 'validation.run', { taskIds: [...HAND_WRITTEN] });
    expect(await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 })).toMatchObject({
      state: 'done',
      done: 3,
      total: 3,
      name: 'validation.run',
      // The job's declared result, counted from the workspace: one valid, two invalid.
      result: { validated: 3, valid: 1, invalid: 2, gone: 0 },
    });
    rec.stop();
    expect(progressOf(rec.list, jobId).at(-1)).toMatchObject({ state: 'done', done: 3, total: 3 });
    expect(rec.list.some((e) => e.event === 'table.changed' && e.payload.table === 'tasks')).toBe(true);

    const invalid = await ok(core, 'tasks.list', {
      filters: [{ field: 'validation_status', conditions: [{ op: 'equals', value: 'invalid' }] }],
      sort: [{ field: 'failed_validator', dir: 'asc' }],
    });
    expect(invalid.rows.map((r) => [r.task_id, r.failed_validator])).toEqual([
      [HAND_WRITTEN[2], 'leakage'],
      [HAND_WRITTEN[1], 'weights'],
    ]);
    const report = await ok(core, 'validation.report', { taskId: HAND_WRITTEN[1] });
    expect(report).toMatchObject({
      status: 'invalid',
      rounds: [{ round: 1, valid: false, diff: '', created_at: expect.stringMatching(/^2026-03-01T09:00/) }],
    }); // the worker keeps the core's clock offset
    expect(report.rounds[0]!.verdicts.find((v) => v.validator === 'weights')).toMatchObject({
      status: 'fail',
      messages: [{ field: 'checks' }],
    });
    expect(await ok(core, 'validation.report', { taskId: HAND_WRITTEN[0] })).toMatchObject({
      status: 'valid',
      rounds: [{ valid: true }],
    });
  });

  it('bad requests: unknown ids (with their index), neither ids nor all, both', async () => {
    const core = open(await workspaceWithHandWritten());
    expect(await fail(core, 'validation.run', { taskIds: [HAND_WRITTEN[0], 'nope'] })).toMatchObject({
      code: 'NOT_FOUND',
      message: 'task nope not found; nothing was validated',
      issues: [{ path: ['taskIds', 1] }],
    });
    expect((await fail(core, 'validation.run', {})).code).toBe('INVALID_INPUT');
    expect((await fail(core, 'validation.run', { all: true, taskIds: ['x'] })).message).toMatch(/not both/);
    expect((await fail(core, 'validation.report', { taskId: 'nope' })).code).toBe('NOT_FOUND');
    expect((await ok(core, 'jobs.list', {})).length).toBe(0);
  });

  it('validation.check validates an inline spec without storing it', async () => {
    const core = open();
    expect(await ok(core, 'validation.check', { spec: validTask() })).toMatchObject({ valid: true });
    const bad = await ok(core, 'validation.check', { spec: { ...validTask(), services: [{ name: 'slack' }] } });
    expect(bad.valid).toBe(false);
    expect(bad.verdicts.find((v) => v.validator === 'services_records')!.messages[0]).toMatchObject({
      field: 'services.0.name',
    });
  });
});

describe.skipIf(!hasCorpus)('validating the imported Claw-Eval tasks (44 in ../shared)', () => {
  it('reports mark plan-dependent checks not applicable; only tasks with safety rules not evaluable fail', async () => {
    const core = open();
    await ok(core, 'tasks.import', { paths: [CLAW_ROOT] });
    const rec = recordEvents(core.events);
    const { jobId } = await ok(core, 'validation.run', { all: true });
    const all = figure(44, () => clawTaskIds().length);
    expect(await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 })).toMatchObject({
      state: 'done',
      done: all,
      total: all,
    });
    rec.stop();
    // Progress after each batch of 25 tasks, and at the end.
    const batches = FULL_DATA
      ? [25, 44]
      : Array.from({ length: Math.ceil(all / 25) }, (_, i) => Math.min(25 * i + 25, all));
    expect(
      progressOf(rec.list, jobId)
        .filter((p) => p.state === 'running')
        .map((p) => p.done),
    ).toEqual(batches);

    const rows = (await ok(core, 'tasks.list', { limit: 100 })).rows;
    // T039–T042's expected actions gmail.sent and todo.created_tasks name keys no mock ever writes (reference Q9):
    // noted at derivation, not made checks no run can meet (upstream never grades expected_actions). Every safety
    // rule type is evaluated (issue 19): from the task's data, or by the judge. So every corpus task is valid.
    expect(
      rows
        .filter((r) => r.validation_status !== 'valid')
        .map((r) => [r.task_id, r.validation_status, r.failed_validator]),
    ).toEqual([]);
    for (const r of rows) {
      const v = (await ok(core, 'validation.report', { taskId: r.task_id })).rounds[0]!.verdicts;
      const consistency = v.find((x) => x.validator === 'grading_consistency')!;
      expect(consistency.status, r.task_id).toBe('not_applicable');
      expect(v.find((x) => x.validator === 'solvability')!.status, r.task_id).toBe('not_applicable');
    }
    const t039 = (
      await ok(core, 'validation.report', { taskId: 'T039zh_onboarding_coordinator' })
    ).rounds[0]!.verdicts.find((x) => x.validator === 'tool_constraints')!;
    // The keys no mock writes are not checks any more: tool_constraints passes; the import still warns about them.
    expect(t039.status).toBe('pass');

    // An edit sends the task back to "not yet validated"; an unchanged re-import does not.
    await ok(core, 'tasks.updateFixtureCell', {
      taskId: 'T018_ticket_triage',
      service: 'helpdesk',
      index: 0,
      field: 'priority',
      value: '"low"',
    });
    await ok(core, 'tasks.import', { paths: [CLAW_ROOT] });
    const after = (await ok(core, 'tasks.list', { limit: 100 })).rows;
    expect(after.filter((r) => r.validation_status === 'unvalidated').map((r) => r.task_id)).toEqual([
      'T018_ticket_triage',
    ]);
    // Earlier versions' rounds stay as history; none describes the current version.
    const report = await ok(core, 'validation.report', { taskId: 'T018_ticket_triage' });
    const current = (await ok(core, 'tasks.get', { taskId: 'T018_ticket_triage' })).row.version;
    expect(report.status).toBe('unvalidated');
    expect(report.rounds.map((r) => r.version)).toEqual([1, 2]);
    expect(current).toBe(3);
  });
});

describe.skipIf(!hasCorpus)('a re-import with changed content', () => {
  it("sends the task back to unvalidated (the old version's report stays, as history); unchanged keeps", async () => {
    // Fixture paths are root-relative (T018 reads T017zh's tickets): the copy keeps a Claw-Eval root's layout.
    const root = tempDir();
    for (const id of ['T017zh_ticket_triage', 'T018_ticket_triage'])
      fs.cpSync(path.join(CLAW_ROOT, 'tasks', id), path.join(root, 'tasks', id), { recursive: true });
    const dir = path.join(root, 'tasks', 'T018_ticket_triage');
    const core = open();
    await ok(core, 'tasks.import', { paths: [dir] });
    const { jobId } = await ok(core, 'validation.run', { taskIds: ['T018_ticket_triage'] });
    await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    await ok(core, 'tasks.import', { paths: [dir] });
    expect((await ok(core, 'validation.report', { taskId: 'T018_ticket_triage' })).status).toBe('valid');
    const yaml = path.join(dir, 'task.yaml');
    fs.writeFileSync(
      yaml,
      fs.readFileSync(yaml, 'utf8').replace('Do not close any tickets.', 'Do not close any ticket.'),
    );
    expect((await ok(core, 'tasks.import', { paths: [dir] })).counts.updated).toBe(1);
    const report = await ok(core, 'validation.report', { taskId: 'T018_ticket_triage' });
    expect(report.status).toBe('unvalidated');
    expect(report.rounds.map((r) => [r.version, r.valid])).toEqual([[1, true]]);
  });
});

describe('coworkenv validate', () => {
  it('exit 0 when every given task is valid; 1 with each failed verdict printed when one is not', async () => {
    const ws = await workspaceWithHandWritten();
    const good = await runCliCaptured(['--workspace', ws, 'validate', '--task', HAND_WRITTEN[0]]);
    expect(good).toMatchObject({ code: 0, stdout: `valid       ${HAND_WRITTEN[0]}\n1 task(s): 1 valid, 0 invalid\n` });
    expect(good.stderr).toMatch(/job [0-9a-f]{8} done: done \(1\/1\)/);
    const bad = await runCliCaptured([
      '--workspace',
      ws,
      'validate',
      '--task',
      HAND_WRITTEN[0],
      '--task',
      HAND_WRITTEN[1],
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      `invalid     ${HAND_WRITTEN[1]}  (weights failed)\n            weights checks: the weights (checks.0.weight + `,
    );
    expect(bad.stdout).toMatch(/2 task\(s\): 1 valid, 1 invalid\n$/);
  });

  it('--all --json prints one machine-readable summary; usage errors exit 2; an unknown task exits 1', async () => {
    const ws = await workspaceWithHandWritten();
    const all = await runCliCaptured(['--workspace', ws, '--json', 'validate', '--all']);
    expect(all.code).toBe(1);
    const summary = JSON.parse(all.stdout.trim());
    expect(summary).toMatchObject({ ok: false, data: { jobCompleted: true, valid: 1, invalid: 2, unvalidated: 0 } });
    expect(
      summary.data.tasks.map((t: { taskId: string; failedValidator: string | null }) => [t.taskId, t.failedValidator]),
    ).toEqual([
      [HAND_WRITTEN[0], null],
      [HAND_WRITTEN[1], 'weights'],
      [HAND_WRITTEN[2], 'leakage'],
    ]);
    expect(summary.data.tasks[2].failures).toEqual([
      { validator: 'leakage', field: 'prompt.text', message: expect.stringContaining('mentions "TK-3001"') },
    ]);
    for (const argv of [['validate'], ['validate', '--all', '--task', 'x']])
      expect((await runCliCaptured(['--workspace', ws, ...argv])).code).toBe(2);
    const missing = await runCliCaptured(['--workspace', ws, 'validate', '--task', 'nope']);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('error NOT_FOUND: task nope not found') });
  });
});
