import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { clawTaskIds, figure, hasTask } from '../helpers/shared-data';
import { createTestCore, tempDir } from '../helpers/test-core';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASKS = path.join(CLAW_ROOT, 'tasks');

/** A scratch Claw-Eval root with copies of some corpus tasks, to damage one on purpose. */
function scratchRoot(ids: string[]): string {
  const root = tempDir('claw-root-');
  for (const id of ids) fs.cpSync(path.join(TASKS, id), path.join(root, 'tasks', id), { recursive: true });
  return root;
}

describe.skipIf(!hasCorpus)('Claw-Eval import of the real corpus', () => {
  it('imports every task (44 in ../shared) with zero errors, keeps every field and reports the quirks', async () => {
    const { core } = createTestCore({ seedDemo: false });
    const r = await ok(core, 'tasks.import', { paths: [CLAW_ROOT] });
    const all = figure(44, () => clawTaskIds().length);
    expect(r.counts).toMatchObject({ imported: all, errors: 0 });
    // Each quirk is checked where its task is present: all of them on the full corpus.
    const warnings: [string, RegExp][] = [
      ['T012_expense_report', /sets no FINANCE_FIXTURES.*T011zh_expense_report.*Chinese original/],
      ['T039zh_onboarding_coordinator', /gmail\.sent never exists/],
      ['T035zh_vendor_procurement', /finance_report_submit: \/finance\/report\/submit requires transactions/],
      ['T033zh_ops_review_dashboard', /helpdesk_list_tickets: \/helpdesk\/tickets ignores the schema's/],
    ];
    const warn = (id: string) => r.outcomes.find((o) => o.taskId === id)!.warnings.join('\n');
    for (const [id, re] of warnings.filter(([id]) => hasTask(id))) expect(warn(id), id).toMatch(re);
    expect(warn('T013zh_meeting_notes')).toBe('');
    // Origin is a grid column: imports can be told from generated tasks (e.g. to leave them out of a reference run).
    expect(await ok(core, 'tasks.values', { field: 'origin' })).toEqual({
      values: [{ value: 'imported', count: all }],
      truncated: false,
    });
    const notImported = { field: 'origin' as const, conditions: [{ op: 'notEqual' as const, value: 'imported' }] };
    expect((await ok(core, 'tasks.list', { filters: [notImported] })).total).toBe(0);
    const refused = await fail(core, 'runs.start', { agent: { kind: 'reference' }, tasks: ['T006_email_reply_draft'] });
    const where = /--where '(.*)'\)$/.exec(refused.message)![1]!;
    expect(JSON.parse(where)).toEqual({ filters: [notImported] });
    const derived = await ok(core, 'tasks.checks', { taskId: 'T006_email_reply_draft' });
    expect(derived.origin).toBe('derived_from_task_yaml');
    expect(derived.prohibited).toEqual([expect.objectContaining({ kind: 'tool', tool: 'gmail_send_message' })]);

    const t = await ok(core, 'tasks.get', { taskId: 'T029zh_cross_service_meeting' });
    expect(t.row).toMatchObject({ split: 'general', language: 'zh', services: ['gmail', 'contacts', 'calendar'] });
    expect(t.fixtures.map((f) => f.service)).toEqual(['gmail', 'contacts', 'calendar']);
    // YAML 1.1 as upstream reads it: the keyword 15:00 loads as 900 (reference §4.2).
    const keywords = JSON.stringify((t.spec.scoring_components as unknown[]) ?? []);
    expect(keywords).toContain('"900"');
    const list = await ok(core, 'tasks.list', {
      filters: [{ field: 'services', operator: 'AND', conditions: [{ op: 'contains', value: 'scheduler' }] }],
      sort: [{ field: 'task_id', dir: 'asc' }],
    });
    const scheduler = [
      'T033zh_ops_review_dashboard',
      'T034_ops_review_dashboard',
      'T037zh_incident_postmortem',
      'T038_incident_postmortem',
      'T041zh_scheduled_task_management',
      'T042_scheduled_task_management',
    ];
    expect(list.rows.map((x) => x.task_id)).toEqual(scheduler.filter(hasTask));
    await core.close();
  });

  it('re-importing the same tasks updates nothing; a changed task becomes a new version', async () => {
    const { core } = createTestCore({ seedDemo: false });
    const root = scratchRoot(['T013zh_meeting_notes', 'T014_meeting_notes']);
    await ok(core, 'tasks.import', { paths: [root] });
    const again = await ok(core, 'tasks.import', { paths: [root] });
    expect(again.counts).toMatchObject({ imported: 0, updated: 0, unchanged: 2 });
    const yamlFile = path.join(root, 'tasks/T013zh_meeting_notes/task.yaml');
    fs.writeFileSync(yamlFile, fs.readFileSync(yamlFile, 'utf8').replace(/^task_name: .*$/m, 'task_name: Renamed'));
    const third = await ok(core, 'tasks.import', { paths: [path.join(root, 'tasks/T013zh_meeting_notes')] });
    expect(third.outcomes[0]).toMatchObject({ status: 'updated', version: 2 });
    expect((await ok(core, 'tasks.list', {})).total).toBe(2);
    await core.close();
  });

  it("a lone task folder resolves its own tasks/<id>/ paths, and refuses to guess another task's fixture", async () => {
    const { core } = createTestCore({ seedDemo: false });
    const dir = tempDir('lone-');
    fs.cpSync(path.join(TASKS, 'T013zh_meeting_notes'), path.join(dir, 'T013zh_meeting_notes'), { recursive: true });
    fs.cpSync(path.join(TASKS, 'T014_meeting_notes'), path.join(dir, 'T014_meeting_notes'), { recursive: true });
    const r = await ok(core, 'tasks.import', {
      paths: [path.join(dir, 'T013zh_meeting_notes'), path.join(dir, 'T014_meeting_notes')],
    });
    // T013zh's default fixture is its own folder; T014 sets no NOTES_FIXTURES and needs T013zh's.
    expect(r.outcomes.map((o) => o.status)).toEqual(['imported', 'error']);
    expect(r.outcomes[1]!.errors[0]).toMatch(
      /T014_meeting_notes: service notes \(default fixture for NOTES_FIXTURES\): .*points outside this task folder/,
    );
    await core.close();
  });
});

describe.skipIf(!hasCorpus)('bad task input gets a clear error; the other tasks still import', () => {
  const cases: [string, (root: string) => void, RegExp][] = [
    [
      'a task.yaml that is not YAML',
      (root) =>
        fs.writeFileSync(path.join(root, 'tasks/T013zh_meeting_notes/task.yaml'), 'task_id: [unclosed\n  - x: {'),
      /T013zh_meeting_notes\/task\.yaml:\d+: not valid YAML/,
    ],
    [
      'a YAML alias bomb',
      (root) =>
        fs.writeFileSync(
          path.join(root, 'tasks/T013zh_meeting_notes/task.yaml'),
          `a: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from(
            { length: 8 },
            (_, i) =>
              `${'b'.repeat(i + 1)}: &${'b'.repeat(i + 1)} [${Array(9)
                .fill(i ? `*${'b'.repeat(i)}` : '*a')
                .join(',')}]`,
          ).join('\n')}\n`,
        ),
      /resource exhaustion|alias/i,
    ],
    [
      'a fixture that is not a JSON array',
      (root) =>
        fs.writeFileSync(
          path.join(root, 'tasks/T013zh_meeting_notes/fixtures/notes/meetings.json'),
          '{"note_id": "n1"}',
        ),
      /meetings\.json is not a JSON array/,
    ],
    [
      'a fixture that is not JSON',
      (root) =>
        fs.writeFileSync(path.join(root, 'tasks/T013zh_meeting_notes/fixtures/notes/meetings.json'), '[{"note_id": }]'),
      /meetings\.json:1:\d+: not valid JSON/,
    ],
    [
      'a record missing a required field',
      (root) => {
        const f = path.join(root, 'tasks/T013zh_meeting_notes/fixtures/notes/meetings.json');
        const recs = JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>[];
        delete recs[2]!.title;
        fs.writeFileSync(f, JSON.stringify(recs));
      },
      /meetings\.json: record 2 \(note_id note_003\): field title/,
    ],
    [
      'a fixture path outside the root',
      (root) => {
        const f = path.join(root, 'tasks/T013zh_meeting_notes/task.yaml');
        fs.writeFileSync(
          f,
          fs
            .readFileSync(f, 'utf8')
            .replace(
              /services:\n(\s+)- name: notes/,
              'services:\n$1- name: notes\n$1  env:\n$1    NOTES_FIXTURES: ../../etc/passwd',
            ),
        );
      },
      /escapes the root/,
    ],
  ];
  for (const [what, damage, message] of cases) {
    it(what, async () => {
      const root = scratchRoot(['T009zh_contact_lookup', 'T013zh_meeting_notes']);
      damage(root);
      const { core } = createTestCore({ seedDemo: false });
      const r = await ok(core, 'tasks.import', { paths: [root] });
      const bad = r.outcomes.find((o) => o.status === 'error')!;
      expect(bad.errors[0]).toMatch(message);
      expect(r.outcomes.find((o) => o.taskId === 'T009zh_contact_lookup')!.status).toBe('imported');
      expect((await ok(core, 'tasks.list', {})).rows.map((x) => x.task_id)).toEqual(['T009zh_contact_lookup']);
      await core.close();
    });
  }

  it('a path that is neither a task folder nor a root is reported, not thrown', async () => {
    const { core } = createTestCore({ seedDemo: false });
    const r = await ok(core, 'tasks.import', { paths: [tempDir('empty-')] });
    expect(r.outcomes[0]!.errors[0]).toMatch(/neither a task folder .*, a Claw-Eval root .* nor a tasks\/ folder/);
    expect((await fail(core, 'tasks.get', { taskId: 'nope' })).code).toBe('NOT_FOUND');
    await core.close();
  });
});

describe.skipIf(!hasCorpus)('web search tasks (T043/T044) carry both fixture files', () => {
  it('imports search results and pages, and the environment fetches a page', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [path.join(TASKS, 'T043zh_service_outage_research')] });
    const t = await ok(core, 'tasks.get', { taskId: 'T043zh_service_outage_research' });
    expect(t.fixtures.map((f) => [f.service, f.env, f.setByTask])).toEqual([
      ['web', 'WEB_SEARCH_FIXTURES', true],
      ['web', 'WEB_FETCH_FIXTURES', true],
    ]);
    const pages = await ok(core, 'tasks.fixtureRows', {
      taskId: 'T043zh_service_outage_research',
      service: 'web',
      fixtureEnv: 'WEB_FETCH_FIXTURES',
    });
    const url = JSON.parse(pages.rows[0]!.url!) as string;
    const r = await ok(core, 'env.replay', {
      taskId: 'T043zh_service_outage_research',
      callsJsonl: JSON.stringify({ tool: 'web_fetch', args: { url } }),
      clock: '2026-03-05T09:00:00Z',
    });
    expect(r.dispatches[0]!.status).toBe(200);
    expect(JSON.parse(r.dispatches[0]!.body)).toMatchObject({ url, status_code: expect.any(Number) });
    await core.close();
  });
});
