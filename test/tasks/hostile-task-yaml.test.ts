import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';
import { yamlTooDeep } from '../../src/main/core/tasks/claw-eval/yaml-depth';
import { fail, ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore, tempDir } from '../helpers/test-core';
import { validTask } from '../validation/valid-task';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASK = 'T013zh_meeting_notes';
const OTHER = 'T009zh_contact_lookup';

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});
const newCore = () => {
  const made = createTestCore({ seedDemo: false });
  cores.push(made.core);
  return made;
};

/** A scratch root with TASK's task.yaml rewritten by `damage`, and OTHER untouched. */
function damagedRoot(damage: (yaml: string) => string): { root: string; file: string } {
  const root = tempDir('claw-root-');
  for (const id of [OTHER, TASK])
    fs.cpSync(path.join(CLAW_ROOT, 'tasks', id), path.join(root, 'tasks', id), { recursive: true });
  const file = path.join(root, 'tasks', TASK, 'task.yaml');
  const before = fs.readFileSync(file, 'utf8');
  const after = damage(before);
  expect(after).not.toBe(before);
  fs.writeFileSync(file, after);
  return { root, file };
}

/** Imports the root: TASK is one error outcome, returned; OTHER imports. */
async function importError(root: string): Promise<string> {
  const { core } = newCore();
  const r = await ok(core, 'tasks.import', { paths: [root] });
  expect(r.outcomes.find((o) => o.taskId === OTHER)?.status).toBe('imported');
  const bad = r.outcomes.find((o) => o.status === 'error');
  expect(bad, JSON.stringify(r.outcomes)).toBeDefined();
  return bad!.errors.join('\n');
}

describe.skipIf(!hasCorpus)('task.yaml numbers that make no sense are refused at import, naming file and field', () => {
  // Upstream's validator checks only that the weights sum to 1, so -5 beside 6 passes there; we normalised a negative
  // sum away into an equal split, and the task validated as valid.
  it('a negative scoring weight', async () => {
    const { root, file } = damagedRoot((t) => t.replace('weight: 0.3', 'weight: -5'));
    expect(await importError(root)).toMatch(
      new RegExp(`^${file.replace(/[.\\]/g, '\\$&')}: field scoring_components\\.1\\.weight: .*negative`),
    );
  });

  it.each([
    ['-1', /at least 1/],
    ['0', /at least 1/],
    ['2.5', /whole number/],
  ])('environment.max_turns: %s', async (value, why) => {
    const { root } = damagedRoot((t) => t.replace('max_turns: 20', `max_turns: ${value}`));
    const e = await importError(root);
    expect(e).toMatch(/task\.yaml: field environment\.max_turns: /);
    expect(e).toMatch(why);
  });

  it('environment.timeout_seconds: 0 and user_agent.max_rounds: -2', async () => {
    const t = damagedRoot((y) => y.replace(/timeout_seconds: \d+/, 'timeout_seconds: 0'));
    expect(await importError(t.root)).toMatch(/task\.yaml: field environment\.timeout_seconds: /);
    const u = damagedRoot((y) => `${y}\nuser_agent:\n  enabled: true\n  max_rounds: -2\n`);
    expect(await importError(u.root)).toMatch(/task\.yaml: field user_agent\.max_rounds: /);
  });

  it('a task stored before these rules: invalid when validated, a clear error (not INTERNAL) when read', async () => {
    const { core, workspacePath } = newCore();
    await ok(core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks', TASK)] });
    const db = openDb(workspacePath);
    try {
      db.prepare("UPDATE tasks SET spec = json_set(spec, '$.environment.max_turns', -1) WHERE task_id = ?").run(TASK);
    } finally {
      db.close();
    }
    const { jobId } = await ok(core, 'validation.run', { taskIds: [TASK] });
    await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    const rep = await ok(core, 'validation.report', { taskId: TASK });
    expect(rep.status).toBe('invalid');
    const structure = rep.rounds.at(-1)!.verdicts.find((v) => v.validator === 'structure')!;
    expect(structure.messages[0]!.field).toBe('task.yaml: environment.max_turns');
    const e = await fail(core, 'tasks.checks', { taskId: TASK });
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(new RegExp(`task ${TASK}: task\\.yaml: field environment\\.max_turns: `));
  });
});

describe.skipIf(!hasCorpus)(
  'task.yaml nested deeper than the limit: the file, line and limit, no stack overflow',
  () => {
    const deepBlock = (n: number) => `${Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`;
    it.each([
      ['flow sequences', () => `deep: ${'['.repeat(100_000)}1${']'.repeat(100_000)}\n`],
      ['flow mappings', () => `deep: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}\n`],
      ['block mappings', () => deepBlock(1_500)],
      ['compact block sequences', () => `deep:\n${'- '.repeat(3_000)}1\n`],
    ])('%s', async (_, deep) => {
      const { root, file } = damagedRoot((t) => `${t}\n${deep()}`);
      const lines = fs.readFileSync(file, 'utf8').split('\n').length;
      const e = await importError(root);
      expect(e).not.toMatch(/stack/i);
      const m = /^(.*task\.yaml):(\d+):\d+: nested deeper than 512 levels$/.exec(e);
      expect(m, e).not.toBeNull();
      expect(m![1]).toBe(file);
      // The line is in the appended part, not where a stack happened to run out.
      expect(Number(m![2])).toBeGreaterThan(lines - (deep().split('\n').length + 1));
    });

    it("just under the limit still parses (the limit is the stored spec's, 512 levels)", () => {
      expect(yamlTooDeep(`a: ${'['.repeat(511)}1${']'.repeat(511)}`, 512)).toBeUndefined();
      expect(yamlTooDeep(`a: ${'['.repeat(512)}1${']'.repeat(512)}`, 512)).toEqual({ line: 1, col: 516 });
    });
  },
);

describe('a TaskSpec with a turn budget that cannot run is not valid', () => {
  it.each([-1, 0, 2.5])('environment.max_turns: %s fails structure, naming the field', async (maxTurns) => {
    const { core } = newCore();
    const r = await ok(core, 'validation.check', {
      spec: { ...validTask(), environment: { max_turns: maxTurns, timeout_seconds: 300 } },
    });
    expect(r.valid).toBe(false);
    const structure = r.verdicts.find((v) => v.validator === 'structure')!;
    expect(structure.messages.map((m) => m.field)).toEqual(['environment.max_turns']);
  });

  it('a negative check weight fails weights, naming the field', async () => {
    const { core } = newCore();
    const spec = validTask() as { checks: { weight: number }[] };
    spec.checks[0]!.weight = -5;
    const r = await ok(core, 'validation.check', { spec });
    expect(r.valid).toBe(false);
    const w = r.verdicts.find((v) => v.validator === 'weights')!;
    expect(w.messages[0]).toMatchObject({ field: 'checks.0.weight', message: expect.stringMatching(/positive/) });
  });
});
