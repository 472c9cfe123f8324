import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { fail, ok, slotInput } from '../helpers/call';
import { planRunJsonl } from '../helpers/plan-run';
import { createTestCore, tempDir } from '../helpers/test-core';
import { importFiles } from '../helpers/trajectory-import';

describe('checks are versioned like fixtures: revert and undo restore them and re-grade (issue 21 item 3)', () => {
  let core: Core;
  let spec: TaskSpec;
  const dir = tempDir('revert-check-');

  beforeAll(async () => {
    core = createTestCore().core;
    await ok(core, 'plan.create', {
      rows: [
        slotInput({ services: ['helpdesk', 'kb'], scenario: 'cross_service', difficulty: 'hard', target_count: 1 }),
      ],
    });
    const { jobId } = await ok(core, 'generation.run', { seed: 5 });
    expect((await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 })).state).toBe('done');
    const task = (await ok(core, 'tasks.list', {})).rows.find((r) => r.origin === 'generated')!;
    spec = (await ok(core, 'tasks.get', { taskId: task.task_id })).spec as TaskSpec;
    const file = path.join(dir, 'runs.jsonl');
    fs.writeFileSync(file, `${planRunJsonl(spec)}\n`);
    expect(await importFiles(core, { paths: [file], format: 'openai-jsonl', taskId: spec.task_id })).toMatchObject({
      graded: 1,
    });
  });
  afterAll(() => core.close());

  const score = async () => (await ok(core, 'trajectories.list', {})).rows[0]!.score;
  const storedCheck = async (id: string) =>
    ((await ok(core, 'tasks.get', { taskId: spec.task_id })).spec as TaskSpec).checks.find((c) => c.id === id)!;

  it('revert to the version before a check edit: the check and the score come back, as a new version', async () => {
    const before = await score();
    const c = spec.checks.find((x) => x.kind === 'tool_called')!;
    const edit = await ok(core, 'grading.updateCheck', { taskId: spec.task_id, check: { ...c, min_count: 99 } });
    expect(edit.version).toBe(2);
    expect(await score()).toBeLessThan(before!);
    const diff = await ok(core, 'tasks.versionDiff', { taskId: spec.task_id, version: 2 });
    expect(diff.checks).toEqual([expect.objectContaining({ id: c.id, change: 'changed' })]);
    expect(diff.checks[0]!.after).toContain('"min_count":99');

    const r = await ok(core, 'tasks.revert', { taskId: spec.task_id, version: 1 });
    expect(r).toMatchObject({ version: 3, status: 'valid', checksRestored: true, regraded: 1, changed: 1 });
    expect(await score()).toBe(before);
    expect(await storedCheck(c.id)).toEqual(c);
    const versions = await ok(core, 'tasks.versions', { taskId: spec.task_id });
    expect(versions.map((v) => v.reason)).toEqual([
      'revert to version 1',
      `check ${c.id} edited`,
      expect.stringMatching(/^generated/),
    ]);
    expect((await fail(core, 'tasks.revert', { taskId: spec.task_id, version: 1 })).message).toMatch(/already equal/);
  });

  it('undo (revert with expectedVersion) is refused when another writer made a version since', async () => {
    const c = spec.checks.find((x) => x.kind === 'tool_called')!;
    const mine = await ok(core, 'grading.updateCheck', { taskId: spec.task_id, check: { ...c, min_count: 50 } });
    await ok(core, 'grading.updateCheck', { taskId: spec.task_id, check: { ...c, min_count: 60 } });
    const stale = await fail(core, 'tasks.revert', {
      taskId: spec.task_id,
      version: mine.version - 1,
      expectedVersion: mine.version,
    });
    expect(stale.code).toBe('CONFLICT');
    expect(await storedCheck(c.id)).toMatchObject({ min_count: 60 });
  });
});
