import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { fail, ok, slotInput } from '../helpers/call';
import { planRunJsonl } from '../helpers/plan-run';
import { createTestCore, tempDir } from '../helpers/test-core';
import { importFiles } from '../helpers/trajectory-import';

describe('grading.updateCheck: edit a check of a generated task, its trajectories re-graded at once', () => {
  let core: Core;
  let spec: TaskSpec;
  const dir = tempDir('update-check-');

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
    const plan = spec.reference_plan ?? [];
    fs.writeFileSync(file, `${planRunJsonl(spec)}\n${planRunJsonl(spec, [plan.length - 1])}\n`);
    const r = await importFiles(core, { paths: [file], format: 'openai-jsonl', taskId: spec.task_id });
    expect(r).toMatchObject({ stored: 2, graded: 2 });
  });
  afterAll(() => core.close());

  const rows = async () =>
    (await ok(core, 'trajectories.list', { sort: [{ field: 'id', dir: 'asc' }] })).rows.map((r) => ({
      id: r.id,
      score: r.score,
      completion: r.completion,
    }));

  it('the same check again: a new version of nothing, the same scores (re-grading is the import grade)', async () => {
    const before = await rows();
    const r = await ok(core, 'grading.updateCheck', { taskId: spec.task_id, check: spec.checks[0]! });
    expect(r).toMatchObject({ version: 1, validation: 'valid', regraded: 2, changed: 0 });
    expect(await rows()).toEqual(before);
  });

  it('a check asking for more calls than any run made: completion drops by its weight, rows and grades', async () => {
    const before = await rows();
    const full = before[0]!;
    const met = (await ok(core, 'trajectories.get', { id: full.id })).grade!.checks.filter((x) => x.status === 'met');
    const c = spec.checks.find((x) => x.kind === 'tool_called' && met.some((m) => m.id === x.id));
    expect(c, 'a tool_called check the full run met').toBeDefined();
    const r = await ok(core, 'grading.updateCheck', {
      taskId: spec.task_id,
      check: { ...c!, min_count: 99 } as typeof c & {},
      expectedVersion: 1,
    });
    // The reference plan no longer scores 1: saved, graded, and the validation says so.
    expect(r).toMatchObject({ version: 2, validation: 'invalid', regraded: 2 });
    expect(r.problem).toMatch(/^grading_consistency: /);
    const after = await rows();
    expect(after[0]!.completion).toBeCloseTo(full.completion! - c!.weight, 4);
    expect(r.changed).toBeGreaterThanOrEqual(1);
    expect(r.meanAfter!).toBeLessThan(r.meanBefore!);
    const { grade } = await ok(core, 'trajectories.get', { id: full.id });
    expect(grade!.checks.find((x) => x.id === c!.id)).toMatchObject({ status: 'failed', score: 0 });
    expect(grade!.completion).toBe(after[0]!.completion);
    const stored = (await ok(core, 'tasks.get', { taskId: spec.task_id })).spec as TaskSpec;
    expect(stored.checks.find((x) => x.id === c!.id)).toMatchObject({ min_count: 99 });
    const versions = await ok(core, 'tasks.versions', { taskId: spec.task_id });
    expect(JSON.stringify(versions)).toContain(`check ${c!.id} edited`);
  });

  it('weights that no longer sum to 1 are saved and graded, and the validation says why', async () => {
    const c = spec.checks[0]!;
    const r = await ok(core, 'grading.updateCheck', { taskId: spec.task_id, check: { ...c, weight: c.weight + 0.5 } });
    expect(r.validation).toBe('invalid');
    expect(r.problem).toMatch(/^weights: /);
    // Put it back for the next test.
    await ok(core, 'grading.updateCheck', { taskId: spec.task_id, check: c });
  });

  it('refuses a stale version, an unknown check, an unknown task — nothing saved', async () => {
    const { row } = await ok(core, 'tasks.get', { taskId: spec.task_id });
    const c = spec.checks[0]!;
    const stale = await fail(core, 'grading.updateCheck', { taskId: spec.task_id, check: c, expectedVersion: 1 });
    expect(stale.code).toBe('CONFLICT');
    const unknown = await fail(core, 'grading.updateCheck', { taskId: spec.task_id, check: { ...c, id: 'nope' } });
    expect(unknown.code).toBe('NOT_FOUND');
    expect((await fail(core, 'grading.updateCheck', { taskId: 'T404', check: c })).code).toBe('NOT_FOUND');
    expect((await ok(core, 'tasks.get', { taskId: spec.task_id })).row.version).toBe(row.version);
  });
});
