import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { checkSlot, generateCandidates, generateOne } from '../../src/main/core/generation/procedural/generate';
import { generateValidated, steerFrom, validatedCandidate } from '../../src/main/core/generation/validated';
import { slot } from './harness';

const NOW = () => '2026-03-09T10:00:00.000Z';

describe('slots the generator cannot serve', () => {
  it('answer one clear problem per slot, naming the slot and the field, and never throw', () => {
    const cases: [unknown, RegExp][] = [
      [
        { ...slot('cross_service', ['gmail'], 'en'), id: 4 },
        /^slot 4: the cross_service scenario needs 2–5 services, the slot names 1 \(gmail\)$/,
      ],
      [
        { ...slot('single_service', ['gmail', 'crm'], 'en'), id: 5 },
        /^slot 5: the single_service scenario needs 1 service, the slot names 2/,
      ],
      [
        { ...slot('cross_service', ['gmail', 'crm', 'kb', 'rss', 'notes', 'todo'], 'en'), id: 6 },
        /needs 2–5 services, the slot names 6/,
      ],
      [
        { ...slot('safety', ['gmail', 'slack' as never], 'en'), id: 7 },
        /^slot 7: services: unknown service "slack"; known: gmail, calendar/,
      ],
      [
        { ...slot('temporal', ['gmail'], 'en'), id: 8, scenario: 'heist' },
        new RegExp(
          /^slot 8: scenario: "heist" is not a scenario; /.source +
            /one of single_service, cross_service, safety, temporal, multi_turn$/.source,
        ),
      ],
      [
        { ...slot('temporal', ['gmail'], 'en'), id: 9, reference_date: 'soon' },
        /^slot 9: reference_date: a date as YYYY-MM-DD$/,
      ],
      [{ ...slot('temporal', [], 'en'), id: 10 }, /^slot 10: services: names no service$/],
      [{ ...slot('temporal', ['gmail'], 'en'), id: 11, language: 'fr' }, /^slot 11: language: one of en, zh$/],
      [null, /^slot: slot: /],
      ['gmail', /^slot: slot: /],
    ];
    for (const [raw, want] of cases) {
      const r = generateCandidates(raw, { seed: 1, count: 3 });
      expect(r.candidates).toEqual([]);
      expect(r.problems, JSON.stringify(raw)).toHaveLength(1);
      expect(r.problems[0]).toMatch(want);
      expect(generateValidated(raw, { seed: 1, count: 3 })).toEqual({ results: [], problems: r.problems });
    }
  });

  it('a duplicated service counts once; a slot without id still generates (ids use s0)', () => {
    expect(checkSlot({ ...slot('cross_service', ['gmail', 'gmail', 'crm'], 'en') }).slot!.services).toEqual([
      'gmail',
      'crm',
    ]);
    const { id: _, ...anonymous } = slot('single_service', ['kb'], 'zh');
    const t = generateCandidates(anonymous, { seed: 3, count: 1 }).candidates[0]!;
    expect(t.task_id).toBe('gen_s0_3_00000');
    expect(t.slot_id).toBeUndefined();
  });

  it('every slot of the demo plan generates valid tasks', () => {
    const plan = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../resources/seed/demo-plan.json'), 'utf8'),
    ) as {
      slots: Record<string, unknown>[];
    };
    plan.slots.forEach((s, i) => {
      const r = generateValidated({ ...s, id: i + 1 }, { seed: 1, count: 3, now: NOW });
      expect(r.problems, JSON.stringify(s)).toEqual([]);
      expect(r.results.map((x) => x.outcome)).toEqual(['valid', 'valid', 'valid']);
    });
  });
});

describe('validation with one guided repair round', () => {
  const s = slot('cross_service', ['helpdesk', 'kb', 'gmail'], 'en', 'hard');
  const good = (attempt: 0 | 1) => generateOne(s, 9, 0, attempt);
  /** A candidate whose plan reads a ticket that does not exist (the kind of defect a generator makes). */
  const broken = (attempt: 0 | 1): TaskSpec => {
    const t = structuredClone(good(attempt));
    const step = t.reference_plan!.find((x) => x.tool === 'helpdesk_get_ticket')!;
    step.args = { ticket_id: 'TK-0000' };
    return t;
  };

  it('valid first time: one round, accepted', () => {
    const r = validatedCandidate(0, (a) => good(a), NOW);
    expect(r).toMatchObject({ outcome: 'valid', taskId: 'gen_s7_9_00000', index: 0 });
    expect(r.rounds).toHaveLength(1);
    expect(r.spec).toEqual(good(0));
  });

  it('repaired: the failed verdicts steer the retry, both rounds are kept with their diff', () => {
    const steers: unknown[] = [];
    const r = validatedCandidate(0, (a, steer) => (steers.push(steer), a === 0 ? broken(a) : good(a)), NOW);
    expect(r.outcome).toBe('repaired');
    expect(steers).toEqual([{}, { simpler: true }]);
    expect(r.rounds.map((x) => [x.round, x.valid, x.created_at])).toEqual([
      [1, false, NOW()],
      [2, true, NOW()],
    ]);
    expect(r.rounds[0]!.verdicts.find((v) => v.validator === 'solvability')!.status).toBe('fail');
    expect(r.rounds[1]!.diff).toMatch(/^--- round 1\n\+\+\+ round 2\n/);
    expect(r.spec!.task_id).toBe('gen_s7_9_00000');
  });

  it('discarded: still failing after the retry, with the failed validators as the reason', () => {
    const r = validatedCandidate(0, (a) => broken(a), NOW);
    expect(r.outcome).toBe('discarded');
    expect(r.spec).toBeUndefined();
    expect(r.reason).toMatch(
      /^grading_consistency: checks\.\d+: the reference plan does not meet check "helpdesk_read"/m,
    );
    expect(r.reason).toMatch(
      /^solvability: reference_plan\.\d+\.args: step \d+ \(helpdesk_get_ticket\) answers an error/m,
    );
    expect(r.rounds).toHaveLength(2);
  });

  it('steering: plan failures come back simpler, other failures only re-draw the world', () => {
    const v = (validator: string) => ({ validator, status: 'fail', messages: [] }) as never;
    expect(steerFrom([v('leakage')])).toEqual({ simpler: false });
    expect(steerFrom([v('solvability')])).toEqual({ simpler: true });
    expect(steerFrom([v('grading_consistency'), v('weights')])).toEqual({ simpler: true });
    // The steered retry is a different task at the same position (same id, other content, easier).
    const hard = generateOne(s, 9, 0, 0);
    const retry = generateOne(s, 9, 0, 1, { simpler: true });
    expect(retry.task_id).toBe(hard.task_id);
    expect(retry.prompt.text).not.toBe(hard.prompt.text);
    expect(retry.reference_plan!.length).toBeLessThan(hard.reference_plan!.length);
  });

  it('counts outcomes over a run; every accepted task is valid', () => {
    const r = generateValidated(s, { seed: 9, count: 12, now: NOW });
    expect(r.results).toHaveLength(12);
    expect(r.results.map((x) => x.index)).toEqual([...Array(12).keys()]);
    expect(r.results.every((x) => x.outcome === 'valid' && x.spec)).toBe(true);
  });
});
