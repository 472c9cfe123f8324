import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../helpers/call';
import { createTestCore, tempDir } from '../helpers/test-core';
import { VOCAB_TASKS, writeVocabTasks } from '../helpers/vocab-tasks';

const CLOCK = '2026-03-01T09:00:00Z';

describe('upstream tasks whose records fall outside our vocabularies (T113–T156 family, issue 17)', () => {
  it('import with a warning naming file, record, field and value, and their routes answer as upstream', async () => {
    const { core } = createTestCore({ seedDemo: false });
    const root = writeVocabTasks(tempDir('claw-vocab-'));
    const r = await ok(core, 'tasks.import', { paths: [root] });
    expect(r.counts).toMatchObject({ imported: 2, errors: 0 });
    const warnings = (id: string) => r.outcomes.find((o) => o.taskId === id)!.warnings;
    expect(warnings(VOCAB_TASKS.calendar)).toEqual([
      'fixture tasks/T113zh_vocab_calendar/fixtures/calendar/events.json: record 0 (event_id evt_201): ' +
        'field organizer: "王明" — an email address (name@example.com); kept as it is (upstream serves it)',
    ]);
    const crm = warnings(VOCAB_TASKS.crm).join('\n');
    expect(crm).toMatch(/customers\.json: record 1 \(customer_id SUP-1001\): field tier: "core" .*one of standard/);
    expect(crm).toMatch(/record 1 \(customer_id SUP-1001\): field status: "suspended"/);
    expect(warnings(VOCAB_TASKS.crm)).toHaveLength(2);
    // The task keeps its warnings: the task detail shows them.
    expect((await ok(core, 'tasks.get', { taskId: VOCAB_TASKS.crm })).row.warnings).toEqual(warnings(VOCAB_TASKS.crm));

    const cal = await ok(core, 'env.replay', {
      taskId: VOCAB_TASKS.calendar,
      clock: CLOCK,
      callsJsonl: [
        { tool: 'calendar_get_event', args: { event_id: 'evt_201' } },
        // The fixture is shifted to the day after the clock; the organizer is also an attendee.
        { tool: 'calendar_get_user_events', args: { user: '王明', date: '2026-03-02' } },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n'),
    });
    expect(cal.dispatches.map((d) => d.status)).toEqual([200, 200]);
    expect(JSON.parse(cal.dispatches[0]!.body)).toMatchObject({ event_id: 'evt_201', organizer: '王明' });
    expect(JSON.parse(cal.dispatches[1]!.body)).toMatchObject({ total: 1, events: [{ organizer: '王明' }] });

    const sup = await ok(core, 'env.replay', {
      taskId: VOCAB_TASKS.crm,
      clock: CLOCK,
      callsJsonl: [
        { tool: 'crm_list_customers', args: { tier: 'core' } },
        { tool: 'crm_get_customer', args: { customer_id: 'SUP-1001' } },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n'),
    });
    expect(sup.dispatches.map((d) => d.status)).toEqual([200, 200]);
    expect(JSON.parse(sup.dispatches[0]!.body)).toEqual({
      customers: [
        {
          customer_id: 'SUP-1001',
          name: '华通科技',
          contact_person: '王总',
          tier: 'core',
          status: 'suspended',
          industry: '网络设备制造',
          annual_revenue: 0,
        },
      ],
      total: 1,
    });
    expect(JSON.parse(sup.dispatches[1]!.body)).toMatchObject({ tier: 'core', status: 'suspended', type: 'supplier' });

    // Another field of that record stays editable: the edit is checked, not the values upstream gave it.
    const edit = { taskId: VOCAB_TASKS.crm, service: 'crm', index: 1 };
    const named = await ok(core, 'tasks.updateFixtureCell', { ...edit, field: 'name', value: '"华通科技（暂停）"' });
    expect(named).toMatchObject({ version: 2, row: { name: '"华通科技（暂停）"', tier: '"core"' } });
    // The edited field itself keeps our vocabulary: the grid writes only its words.
    expect((await fail(core, 'tasks.updateFixtureCell', { ...edit, field: 'tier', value: '"gold"' })).message).toMatch(
      /tier is one of standard/,
    );
    await core.close();
  });

  it('what upstream itself cannot serve still refuses the task, every reason listed', async () => {
    const { core } = createTestCore({ seedDemo: false });
    const root = writeVocabTasks(tempDir('claw-vocab-'));
    const edit = (id: string, file: string, change: (records: unknown[]) => void) => {
      const f = path.join(root, 'tasks', id, 'fixtures', file);
      const records = JSON.parse(fs.readFileSync(f, 'utf8')) as unknown[];
      change(records);
      fs.writeFileSync(f, JSON.stringify(records));
    };
    // Upstream's calendar parses every start_time when it starts: this one stops it.
    edit(
      VOCAB_TASKS.calendar,
      'calendar/events.json',
      (r) => void ((r[1] as Record<string, unknown>).start_time = 'next Tuesday'),
    );
    // Upstream's CRM list reads c["tier"] of every customer, and indexes every record by key.
    edit(VOCAB_TASKS.crm, 'crm/customers.json', (r) => {
      delete (r[0] as Record<string, unknown>).tier;
      r.push('SUP-1002');
    });
    const r = await ok(core, 'tasks.import', { paths: [root] });
    expect(r.counts).toMatchObject({ imported: 0, errors: 2 });
    const errors = (n: number) => r.outcomes[n]!.errors;
    expect(errors(0)).toEqual([
      'T113zh_vocab_calendar: fixture tasks/T113zh_vocab_calendar/fixtures/calendar/events.json: record 1 ' +
        "(event_id evt_202): field start_time: upstream's calendar parses start_time and end_time when it starts " +
        "and would not start: ValueError: Invalid isoformat string: 'next Tuesday'",
    ]);
    expect(errors(1)).toEqual([
      expect.stringMatching(
        /customers\.json: record 0 \(customer_id CUS-001\): field tier: missing: upstream's crm reads record\["tier"\]/,
      ),
      expect.stringMatching(/customers\.json: record 2: "SUP-1002" — not a JSON object/),
    ]);
    await core.close();
  });
});
