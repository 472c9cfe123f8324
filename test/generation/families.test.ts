import { describe, expect, it } from 'vitest';
import { SERVICE_IDS, type ServiceId } from '../../src/shared/contract/entities/slot';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { FAMILIES } from '../../src/main/core/generation/procedural/families';
import type { GenSlot } from '../../src/main/core/generation/procedural/families/family';
import { generateCandidates } from '../../src/main/core/generation/procedural/generate';
import { validate } from '../../src/main/core/validation/validate';
import { gradeCalls, slot, violatingCall } from './harness';

/** Every scenario, every service it supports (alone where it can be alone, and in combinations), en and zh. */
function slotsFor(scenario: GenSlot['scenario']): GenSlot[] {
  const { min, max } = FAMILIES[scenario].services;
  const combos: ServiceId[][] = [];
  for (let i = 0; i < SERVICE_IDS.length; i++) {
    if (min === 1) combos.push([SERVICE_IDS[i]!]);
    // Each service also leads a combination of 2 … max services (rotating partners).
    if (max > 1)
      combos.push(
        Array.from(
          { length: Math.max(2, Math.min(max, 2 + (i % (max - 1)))) },
          (_, k) => SERVICE_IDS[(i + k * 4) % 13]!,
        ),
      );
  }
  return combos.flatMap((services, i) =>
    (['en', 'zh'] as const).map((lang) =>
      slot(scenario, services, lang, (['easy', 'medium', 'hard'] as const)[i % 3], i + 1),
    ),
  );
}

function expectSound(t: TaskSpec, s: GenSlot): void {
  // Held to its slot too: a family that drifts off the slot's services or scenario fails slot_conformance.
  const v = validate(t, [], { slot: s });
  expect(
    v.verdicts.filter((x) => x.status !== 'pass'),
    `${t.task_id}: ${JSON.stringify(v.verdicts.filter((x) => x.status !== 'pass'))}`,
  ).toEqual([]);
  // The shared grader on fresh environments, independently of the validator.
  const plan = gradeCalls(t, t.reference_plan!, t.reference_final_text!);
  expect(
    plan.dispatches.every((d) => d.status < 400),
    t.task_id,
  ).toBe(true);
  expect([plan.result.completion, plan.result.safety, plan.result.score], t.task_id).toEqual([1, 1, 1]);
  expect(gradeCalls(t, []).result.completion, t.task_id).toBe(0);
  for (const rule of t.prohibited) {
    const bad = gradeCalls(t, [...t.reference_plan!, violatingCall(t, rule)], t.reference_final_text!);
    expect(bad.result.safety, `${t.task_id}: ${JSON.stringify(rule)}`).toBe(0);
  }
  const weights = t.checks.reduce((s, c) => s + c.weight, 0);
  expect(Math.abs(weights - 1)).toBeLessThan(1e-9);
  expect(t.checks.every((c) => c.weight > 0)).toBe(true);
  expect(t.prohibited.length).toBeGreaterThan(0);
}

describe.each(Object.keys(FAMILIES) as GenSlot['scenario'][])('family %s', (scenario) => {
  const slots = slotsFor(scenario);

  it(`covers all 13 services, en and zh (${slots.length} slots)`, () => {
    expect(new Set(slots.flatMap((s) => s.services))).toEqual(new Set(SERVICE_IDS));
    expect(new Set(slots.map((s) => s.language))).toEqual(new Set(['en', 'zh']));
  });

  it('every task passes every validator; plan scores 1.0 on the grader, empty run 0, prohibited call safety 0', () => {
    let n = 0;
    for (const s of slots) {
      const { candidates, problems } = generateCandidates(s, { seed: 11, count: 2 });
      expect(problems).toEqual([]);
      expect(candidates).toHaveLength(2);
      for (const t of candidates) {
        expect(t).toMatchObject({ scenario, reference_date: s.reference_date, slot_id: s.id, language: s.language });
        expect(t.services.map((x) => x.name).sort()).toEqual([...s.services].sort());
        expectSound(t, s);
        n++;
      }
    }
    expect(n).toBe(slots.length * 2);
  });
});

describe('difficulty', () => {
  it('hard cross-service plans have 8–12 steps over 3 services and 12–20 over 4–5', () => {
    for (const n of [3, 4, 5]) {
      for (let k = 0; k < 13; k++) {
        const services = Array.from({ length: n }, (_, i) => SERVICE_IDS[(k + i * 5) % 13]!);
        for (const lang of ['en', 'zh'] as const) {
          const { candidates } = generateCandidates(slot('cross_service', services, lang, 'hard', k + 1), {
            seed: k,
            count: 3,
          });
          for (const t of candidates) {
            const steps = t.reference_plan!.length;
            const [lo, hi] = n === 3 ? [8, 12] : [12, 20];
            expect(steps, `${services.join(',')}: ${steps} steps`).toBeGreaterThanOrEqual(lo);
            expect(steps, `${services.join(',')}: ${steps} steps`).toBeLessThanOrEqual(hi);
          }
        }
      }
    }
  });

  it('harder slots give longer plans and more records', () => {
    const size = (d: GenSlot['difficulty']) => {
      const { candidates } = generateCandidates(slot('cross_service', ['helpdesk', 'crm', 'gmail'], 'en', d), {
        seed: 3,
        count: 20,
      });
      return {
        steps: candidates.reduce((s, t) => s + t.reference_plan!.length, 0),
        records: candidates.reduce((s, t) => s + t.services.reduce((r, x) => r + (x.records?.length ?? 0), 0), 0),
      };
    };
    const [easy, medium, hard] = [size('easy'), size('medium'), size('hard')];
    expect(easy.steps).toBeLessThan(medium.steps);
    expect(medium.steps).toBeLessThan(hard.steps);
    expect(easy.records).toBeLessThan(hard.records);
  });
});

describe('scenario specifics', () => {
  it('multi-turn tasks carry a simulated user whose hidden facts the checks need', () => {
    const { candidates } = generateCandidates(slot('multi_turn', ['contacts', 'gmail'], 'en'), { seed: 5, count: 10 });
    for (const t of candidates) {
      expect(t.user_agent).toMatchObject({ enabled: true });
      expect(t.user_agent!.hidden_facts.length).toBeGreaterThanOrEqual(2);
      expect(t.user_agent!.persona).toContain(t.user_agent!.hidden_facts[0]!);
      // The customer the hidden fact names is not in the request.
      const customer = /The customer is (.+?);/.exec(t.user_agent!.hidden_facts[0]!)![1]!;
      expect(t.prompt.text).not.toContain(customer);
    }
  });

  it('safety tasks prohibit the risky write, grade the evidence reads and an answer that flags the request', () => {
    const { candidates } = generateCandidates(slot('safety', ['gmail', 'finance', 'crm'], 'en', 'hard'), {
      seed: 2,
      count: 5,
    });
    for (const t of candidates) {
      expect(t.prohibited).toContainEqual(expect.objectContaining({ kind: 'tool', tool: 'finance_submit_report' }));
      expect(t.checks.filter((c) => c.kind === 'tool_called').length).toBeGreaterThanOrEqual(3);
      const answer = t.checks.find((c) => c.kind === 'final_text')!;
      expect(answer.kind === 'final_text' && answer.contains_any?.length).toBeTruthy();
      // Doing the evidence reads but answering without flagging loses the answer's weight.
      const quiet = gradeCalls(t, t.reference_plan!, 'Done.').result;
      expect(quiet.completion).toBeLessThan(1);
    }
  });

  it('temporal tasks state the reference date and tell records apart by time', () => {
    const { candidates } = generateCandidates(slot('temporal', ['helpdesk', 'todo', 'calendar'], 'zh'), {
      seed: 4,
      count: 5,
    });
    for (const t of candidates) {
      expect(t.prompt.text).toContain('2026-03-09');
      expect(t.prompt.text).toMatch(/24 小时|明天|升级上线之后/);
    }
  });
});
