import { describe, expect, it } from 'vitest';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { generateOne } from '../../src/main/core/generation/procedural/generate';
import { validatedCandidate } from '../../src/main/core/generation/validated';
import type { SlotTarget } from '../../src/main/core/validation/types';
import { validate } from '../../src/main/core/validation/validate';
import { slot } from '../generation/harness';
import { validTask } from './valid-task';

const conformance = (spec: unknown, s?: SlotTarget) =>
  validate(spec, [], s ? { slot: s } : {}).verdicts.find((v) => v.validator === 'slot_conformance')!;
const edit = (t: TaskSpec, f: (c: TaskSpec) => void) => {
  const c = structuredClone(t);
  f(c);
  return c;
};

describe('slot_conformance', () => {
  const s = slot('temporal', ['calendar', 'kb', 'crm'], 'en', 'hard');
  const task = generateOne(s, 3, 0);

  it('a procedural task passes for its own slot', () => {
    expect(conformance(task, s)).toEqual({ validator: 'slot_conformance', status: 'pass', messages: [] });
  });

  it("names each field that differs, with the slot's value and the task's", () => {
    const v = conformance(
      edit(task, (c) => {
        c.difficulty = 'easy';
        c.language = 'zh';
        c.reference_date = '2026-03-10';
        c.scenario = 'single_service';
        c.category = 'sales';
        c.slot_id = 8;
      }),
      s,
    );
    expect(v.status).toBe('fail');
    expect(v.messages).toEqual([
      { field: 'slot_id', message: "the slot is 7, the task's slot_id is 8" },
      { field: 'category', message: 'the slot\'s category is "ops", the task\'s is "sales"' },
      { field: 'difficulty', message: 'the slot\'s difficulty is "hard", the task\'s is "easy"' },
      { field: 'language', message: 'the slot\'s language is "en", the task\'s is "zh"' },
      {
        field: 'reference_date',
        message:
          'the slot\'s reference_date is "2026-03-09", the task\'s is "2026-03-10" ' +
          '(a temporal task tells its records apart by time relative to this date)',
      },
      { field: 'scenario', message: 'the slot\'s scenario is "temporal", the task\'s is "single_service"' },
    ]);
  });

  it('a task with fewer or more services than its slot fails; so does a slot service the plan never calls', () => {
    expect(conformance(task, { ...s, services: ['calendar', 'kb'] }).messages).toEqual([
      {
        field: 'services',
        message:
          "the slot's services are calendar, kb, the task's are " +
          `${task.services.map((x) => x.name).join(', ')}; not in the slot crm — a task counts under exactly its ` +
          'slot’s services',
      },
    ]);
    const kb = task.services.findIndex((x) => x.name === 'kb');
    const unused = edit(task, (c) => {
      c.reference_plan = c.reference_plan!.filter((p) => !p.tool.startsWith('kb_'));
    });
    expect(conformance(unused, s).messages).toContainEqual({
      field: `services.${kb}`,
      message:
        "the slot's service kb is declared but the reference plan calls none of its tools: the task does not use it",
    });
  });

  it('a multi_turn task whose simulated user holds no hidden facts fails', () => {
    const m = slot('multi_turn', ['helpdesk'], 'en');
    const t = generateOne(m, 3, 0);
    expect(conformance(t, m).status).toBe('pass');
    const v = conformance(
      edit(t, (c) => {
        c.user_agent!.hidden_facts = [];
      }),
      m,
    );
    expect(v.messages.map((x) => x.field)).toEqual(['user_agent.hidden_facts']);
  });

  it('not applicable without a slot (hand-written) and for imported tasks', () => {
    expect(conformance(validTask())).toMatchObject({ status: 'not_applicable', messages: [{ field: 'slot_id' }] });
    const imported = validate(validTask(), [], { imported: true, slot: s }).verdicts.at(-1)!;
    expect(imported).toMatchObject({ validator: 'slot_conformance', status: 'not_applicable' });
  });

  it('the procedural repair round sees it: an off-slot candidate is discarded with the reason', () => {
    const r = validatedCandidate(
      0,
      () => task,
      () => '2026-03-09T09:00:00Z',
      { ...s, services: ['gmail'] },
    );
    expect(r.outcome).toBe('discarded');
    expect(r.reason).toMatch(/^slot_conformance: services: the slot's services are gmail, the task's are /m);
  });
});
