import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/shared/contract/validation.contract';
import { VALIDATORS } from '../../src/shared/contract/validation.contract';
import { validate } from '../../src/main/core/validation/validate';
import { validTask } from './valid-task';

type Task = ReturnType<typeof validTask>;
// biome-ignore lint/suspicious/noExplicitAny: tests break specs on purpose
type AnyObj = Record<string, any>;

const failing = (verdicts: Verdict[]) => verdicts.filter((v) => v.status === 'fail').map((v) => v.validator);
const messagesOf = (verdicts: Verdict[], validator: string) =>
  verdicts.find((v) => v.validator === validator)!.messages;
/** Problems only: the valid task's judged check (checks.4) is always noted as excluded. */
const problemsOf = (verdicts: Verdict[], validator: string) =>
  messagesOf(verdicts, validator).filter((m) => !/llm_judge check "tone"/.test(m.message));

/**
 * One defect per class: [name, mutation, validator that must catch it, field its message names, text of the message,
 * every validator that fails].
 */
const DEFECTS: [string, (t: AnyObj) => void, string, string, RegExp, string[]][] = [
  [
    'completion weights summing to 0.9',
    (t) => void (t.checks[3].weight = 0.05),
    'weights',
    'checks',
    /sum to 0\.9\b/,
    ['weights'],
  ],
  [
    'a prohibited tool required by a check',
    (t) => void Object.assign(t.checks[0], { tool: 'gmail_send_message', args: undefined }),
    'tool_constraints',
    'checks.0.tool',
    /requires gmail_send_message, which prohibited\.0 forbids/,
    // The plan cannot meet it without calling the prohibited tool.
    ['tool_constraints', 'grading_consistency'],
  ],
  [
    'a leaked ticket id in the request',
    (t) => void (t.prompt.text += ' It is ticket TK-3001.'),
    'leakage',
    'prompt.text',
    new RegExp(
      String.raw`mentions "TK-3001", which checks\.1\.fields\.ticket_id\.equals, checks\.3\.contains_all\.0, ` +
        String.raw`reference_plan\.3\.args\.ticket_id target`,
    ),
    ['leakage'],
  ],
  [
    'a check whose target never occurs',
    (t) => void (t.checks[1].fields.ticket_id.equals = 'TK-3999'),
    'grading_consistency',
    'checks.1',
    /does not meet check "ticket_high".*\(TK-3999 occurs in no fixture record\)/,
    ['grading_consistency'],
  ],
  [
    'a grader that scores an empty run > 0',
    (t) => void (t.checks[3] = { id: 'reported', kind: 'final_text', weight: 0.15, min_length: 0 }),
    'grading_consistency',
    'checks.3',
    /an empty run .* already scores 1 on check "reported"/,
    ['grading_consistency'],
  ],
  [
    'an unknown service',
    (t) => void t.services.push({ name: 'slack', records: [] }),
    'services_records',
    'services.2.name',
    /unknown service "slack"; registered: gmail, calendar/,
    ['services_records'],
  ],
  [
    'a record with a wrong field type',
    (t) => void (t.services[1].records[0].title = 3),
    'services_records',
    'services.1.records.0.title',
    /expected string, received number/,
    ['services_records'],
  ],
  [
    'a record whose enum field is outside its list',
    (t) => void (t.services[1].records[0].priority = 'whenever'),
    'services_records',
    'services.1.records.0.priority',
    /one of "" \(empty\), low, medium, high/,
    ['services_records'],
  ],
  [
    'two records with the same key',
    (t) => void t.services[1].records.push({ ...t.services[1].records[0] }),
    'services_records',
    'services.1.records.2.ticket_id',
    /duplicate ticket_id "TK-/,
    ['services_records'],
  ],
  [
    'a tool offered but missing from its service',
    (t) => {
      t.tools.push({ name: 'helpdesk_delete_ticket', input_schema: {} });
      t.tool_endpoints.push({
        tool_name: 'helpdesk_delete_ticket',
        url: 'http://localhost:9107/helpdesk/tickets/delete',
      });
    },
    'tool_constraints',
    'tool_endpoints.6.url',
    /"helpdesk_delete_ticket" is offered but helpdesk has no route \/helpdesk\/tickets\/delete/,
    ['tool_constraints'],
  ],
];

describe('the valid hand-written task', () => {
  it('passes every validator; the judged check is reported as excluded, not as met', () => {
    const r = validate(validTask());
    expect(r.verdicts.map((v) => v.validator)).toEqual([...VALIDATORS]);
    // A hand-written task fills no coverage slot: slot conformance does not apply to it.
    expect(r.verdicts.map((v) => v.status)).toEqual(
      VALIDATORS.map((v) => (v === 'slot_conformance' ? 'not_applicable' : 'pass')),
    );
    expect(r.valid).toBe(true);
    expect(messagesOf(r.verdicts, 'grading_consistency')).toEqual([
      { field: 'checks.4', message: expect.stringContaining('llm_judge check "tone" needs a judge endpoint') },
    ]);
  });
});

describe('deliberately broken tasks: each defect caught by the right validator, naming the field', () => {
  it.each(DEFECTS)('%s', (_name, breakIt, validator, field, text, allFailing) => {
    const t = validTask() as AnyObj;
    breakIt(t);
    const r = validate(t);
    expect(r.valid).toBe(false);
    expect(failing(r.verdicts)).toEqual(allFailing);
    expect(messagesOf(r.verdicts, validator)).toContainEqual({ field, message: expect.stringMatching(text) });
  });
});

describe('more bad input: a verdict, never a crash', () => {
  const broken = (f: (t: AnyObj) => void) => {
    const t = validTask() as AnyObj;
    f(t);
    return validate(t);
  };
  it('an audit check on a key the service never writes (upstream gmail.sent) and on an unknown service', () => {
    const r = broken((t) => {
      t.checks[2].action_key = 'sent';
      t.prohibited[1].service = 'slack';
    });
    expect(messagesOf(r.verdicts, 'tool_constraints')).toEqual([
      {
        field: 'checks.2.action_key',
        message: 'gmail has no audit key "sent" (its keys: sent_messages, drafts), so gmail.sent is always empty',
      },
      { field: 'prohibited.1.service', message: 'unknown service "slack"' },
    ]);
    expect(messagesOf(r.verdicts, 'grading_consistency')).toContainEqual({
      field: 'prohibited.1',
      message: expect.stringContaining('cannot be triggered: no offered tool reaches slack'),
    });
  });

  it('a spec that does not parse: structure names each field, the other validators do not run', () => {
    const r = broken((t) => {
      delete t.prompt;
      t.checks[1].fields.priority = { between: [1, 2] };
      t.checks[0].weight = 'a lot';
    });
    expect(messagesOf(r.verdicts, 'structure').map((m) => m.field)).toEqual(
      expect.arrayContaining(['prompt', 'checks.0.weight', 'checks.1.fields.priority']),
    );
    expect(
      r.verdicts.slice(1).every((v) => v.status === 'not_applicable' && /does not parse/.test(v.messages[0]!.message)),
    ).toBe(true);
  });

  it('a regex that does not compile and a duplicate check id are structure failures', () => {
    const r = broken((t) => {
      t.checks[3] = { id: 'read_mail', kind: 'final_text', weight: 0.15, regex: '(TK-' };
    });
    expect(messagesOf(r.verdicts, 'structure')).toEqual([
      { field: 'checks.3.id', message: expect.stringContaining('duplicate check id "read_mail" (also checks.0.id)') },
      { field: 'checks.3.regex', message: expect.stringContaining('not a valid regular expression') },
    ]);
  });

  it('a plan step that reads a missing record fails solvability (the mock answers "not found" with HTTP 200)', () => {
    const r = broken(
      (t) => void t.reference_plan.splice(1, 0, { tool: 'gmail_get_message', args: { message_id: 'msg_999' } }),
    );
    expect(failing(r.verdicts)).toEqual(['solvability']);
    expect(messagesOf(r.verdicts, 'solvability')).toEqual([
      {
        field: 'reference_plan.1.args',
        message: 'step 1 (gmail_get_message) answers an error: {"error": "Message msg_999 not found"}',
      },
    ]);
  });

  it('a plan that violates a prohibited rule, and a plan step with a missing required argument', () => {
    const r = broken((t) => {
      t.reference_plan.push(
        { tool: 'helpdesk_update_ticket', args: { ticket_id: 'TK-3002', priority: 'low' } },
        { tool: 'gmail_save_draft', args: { to: 'x@example.com' } },
      );
    });
    expect(problemsOf(r.verdicts, 'grading_consistency')).toEqual([
      {
        field: 'prohibited.1',
        message: expect.stringContaining(
          'the reference plan itself violates this prohibited rule (helpdesk.updated_tickets[1])',
        ),
      },
    ]);
    expect(messagesOf(r.verdicts, 'solvability')).toEqual([
      {
        field: 'reference_plan.6',
        message: expect.stringMatching(/^step 6 \(gmail_save_draft\) fails with status 422/),
      },
    ]);
  });

  it('a prohibited rule whose arguments nothing can satisfy cannot be triggered', () => {
    const r = broken((t) => void (t.prohibited[0].args = { to: { regex: '^[a-z]+@evil\\.(com|net)$' } }));
    expect(problemsOf(r.verdicts, 'grading_consistency')).toEqual([
      { field: 'prohibited.0', message: expect.stringContaining('no call of gmail_send_message can be built') },
    ]);
  });

  it('without a reference plan, the plan-dependent checks are not applicable — never passed', () => {
    const r = broken((t) => void delete t.reference_plan);
    expect(r.valid).toBe(true);
    const gc = r.verdicts.find((v) => v.validator === 'grading_consistency')!;
    expect(gc.status).toBe('not_applicable');
    expect(gc.messages[0]).toEqual({
      field: 'reference_plan',
      message: expect.stringContaining('cannot be checked (not passed)'),
    });
    expect(r.verdicts.find((v) => v.validator === 'solvability')).toMatchObject({
      status: 'not_applicable',
      messages: [{ field: 'reference_plan' }],
    });
  });
});

// Keeps the suite honest: the valid task's shape is what the defects above mutate.
const _shape: Task = validTask();
void _shape;
