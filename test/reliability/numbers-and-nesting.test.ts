import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { MAX_JSON_DEPTH, parseJsonText } from '../../src/main/core/lib/json-input';
import { parsePyJsonText } from '../../src/main/core/py/pyjson';
import { fail, ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore, tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASK = 'T013zh_meeting_notes';
const FIXTURE = `tasks/${TASK}/fixtures/notes/meetings.json`;
const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});
const newCore = () => {
  const made = createTestCore({ seedDemo: false });
  cores.push(made.core);
  return made;
};

function scratchRoot(): string {
  const root = tempDir('claw-root-');
  for (const id of ['T009zh_contact_lookup', TASK])
    fs.cpSync(path.join(CLAW_ROOT, 'tasks', id), path.join(root, 'tasks', id), { recursive: true });
  return root;
}

/** The damaged task is one error outcome naming `message`; the other task imports. */
async function importOneBroken(root: string, message: RegExp) {
  const { core } = newCore();
  const r = await ok(core, 'tasks.import', { paths: [root] });
  expect(r.outcomes.find((o) => o.status === 'error')?.errors[0]).toMatch(message);
  expect(r.outcomes.find((o) => o.taskId === 'T009zh_contact_lookup')?.status).toBe('imported');
  return core;
}

describe.skipIf(!hasCorpus)('numbers out of range in a task: that task is reported, the others import', () => {
  const cases: [string, (text: string) => string, RegExp][] = [
    [
      'a float 1e400 in a fixture',
      (t) => t.replace(/"note_id": "note_002"/, '"note_id": "note_002", "score": 1e400'),
      /meetings\.json:\d+:\d+: the number 1e400 is out of range/,
    ],
    [
      'an integer of 400 digits in a fixture',
      (t) => t.replace(/"note_id": "note_002"/, `"note_id": "note_002", "n": 1${'0'.repeat(400)}`),
      /meetings\.json:\d+:\d+: the number 1000+… is out of range/,
    ],
    [
      `a fixture nested deeper than ${MAX_JSON_DEPTH} levels`,
      (t) => t.replace(/"note_id": "note_002"/, `"note_id": "note_002", "x": ${deep(600)}`),
      new RegExp(`meetings\\.json:\\d+:\\d+: nested deeper than ${MAX_JSON_DEPTH} levels`),
    ],
  ];
  for (const [what, damage, message] of cases) {
    it(what, async () => {
      const root = scratchRoot();
      const f = path.join(root, FIXTURE);
      fs.writeFileSync(f, damage(fs.readFileSync(f, 'utf8')));
      await importOneBroken(root, message);
    });
  }

  it('a weight of 1e400 (or .inf) in task.yaml names the field', async () => {
    const root = scratchRoot();
    const f = path.join(root, 'tasks', TASK, 'task.yaml');
    fs.writeFileSync(f, `${fs.readFileSync(f, 'utf8')}\nextra_limits:\n  budget: .inf\n`);
    await importOneBroken(root, /task\.yaml: field extra_limits\.budget: Infinity cannot be stored/);
  });
});

describe.skipIf(!hasCorpus)('tasks.updateFixtureCell refuses what it cannot store, and writes nothing', () => {
  const T011 = path.join(CLAW_ROOT, 'tasks/T011zh_expense_report');
  const edit = (field: string, value: string) => ({
    taskId: 'T011zh_expense_report',
    service: 'finance',
    index: 0,
    field,
    value,
  });

  it('1e400, a 400-digit integer and deep nesting are INVALID_INPUT, not INTERNAL', async () => {
    const { core } = newCore();
    await ok(core, 'tasks.import', { paths: [T011] });
    for (const [value, message] of [
      ['1e400', /amount:1:1: the number 1e400 is out of range.*nothing was saved/],
      [`-1${'0'.repeat(400)}`, /amount:1:1: the number -1000.*out of range/],
      [deep(600), /amount:1:\d+: nested deeper than 512 levels/],
    ] as const) {
      const err = await fail(core, 'tasks.updateFixtureCell', edit('amount', value));
      expect(err.code, value.slice(0, 20)).toBe('INVALID_INPUT');
      expect(err.message).toMatch(message);
    }
    expect((await ok(core, 'tasks.get', { taskId: 'T011zh_expense_report' })).row.version).toBe(1);
  });

  it('a field named __proto__ is a field (plain data, as upstream), never the record’s prototype', async () => {
    const { core } = newCore();
    await ok(core, 'tasks.import', { paths: [T011] });
    const before = await ok(core, 'tasks.fixtureRows', { taskId: 'T011zh_expense_report', service: 'finance' });
    await ok(core, 'tasks.updateFixtureCell', edit('__proto__', '{"polluted": true}'));
    const after = await ok(core, 'tasks.fixtureRows', { taskId: 'T011zh_expense_report', service: 'finance' });
    // Compared as entries: an object literal's `__proto__:` would set a prototype, the very mistake tested here.
    expect(Object.entries(after.rows[0]!)).toEqual([
      ...Object.entries(before.rows[0]!),
      ['__proto__', '{"polluted": true}'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('deeply nested JSON input says so', () => {
  it(`parseJsonText and parsePyJsonText: "nested deeper than ${MAX_JSON_DEPTH} levels" with line and column`, () => {
    const text = `{"a":\n ${deep(MAX_JSON_DEPTH + 5)}}`;
    expect(parseJsonText(text, 'in.json')).toEqual({
      ok: false,
      message: `in.json:2:${1 + MAX_JSON_DEPTH}: nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
    expect(parsePyJsonText(text, 'in.json')).toEqual(parseJsonText(text, 'in.json'));
    expect(parseJsonText(deep(MAX_JSON_DEPTH - 1), 'x').ok).toBe(true);
    // Python-style floats nested deep went through a recursive reviver: a stack overflow, "not valid JSON".
    expect(parsePyJsonText(`[${deep(20_000).replace('1', '1.5')}]`, 'f.json')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^f\.json:1:\d+: nested deeper than/),
    });
  });

  it('the CLI says so for --input', async () => {
    const ws = path.join(tempDir(), 'ws.coworkenv.db');
    const r = await runCliCaptured(['--workspace', ws, 'call', 'plan.list', '--input', `{"x": ${deep(20_000)}}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--input:1:\d+: nested deeper than 512 levels/);
  });
});
