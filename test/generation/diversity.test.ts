import { describe, expect, it } from 'vitest';
import { SCENARIOS, SERVICE_IDS } from '../../src/shared/contract/entities/slot';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { generateCandidates } from '../../src/main/core/generation/procedural/generate';
import { SURNAME_PINYIN } from '../../src/main/core/generation/procedural/world-data';
import { fakerZH_CN } from '@faker-js/faker';
import { cjkShare, gradeCalls, slot, violatingCall } from './harness';

type Gen = TaskSpec & { generation: { distractors: { service: string; id: string; rule: string }[] } };

/** 1,000 tasks: 50 slots (every scenario, 1–5 services, en/zh, three difficulties) × 20 candidates. */
const BATCH: Gen[] = Array.from({ length: 50 }, (_, i) => {
  const scenario = SCENARIOS[i % 5]!;
  const n = scenario === 'single_service' ? 1 : scenario === 'cross_service' ? 2 + (i % 4) : 1 + (i % 5);
  const services = Array.from({ length: n }, (_, k) => SERVICE_IDS[(i * 3 + k * 5) % 13]!);
  const s = slot(
    scenario,
    [...new Set(services)],
    i % 2 ? 'zh' : 'en',
    (['easy', 'medium', 'hard'] as const)[i % 3],
    i + 1,
  );
  return generateCandidates(s, { seed: 2026, count: 20 }).candidates as Gen[];
}).flat();

describe('a batch of 1,000 generated tasks', () => {
  it('has 1,000 tasks with unique ids and no duplicate request texts', () => {
    expect(BATCH).toHaveLength(1000);
    expect(new Set(BATCH.map((t) => t.task_id)).size).toBe(1000);
    expect(new Set(BATCH.map((t) => t.prompt.text)).size).toBe(1000);
  });

  it('varies: many customers, topics and plan shapes', () => {
    const plans = new Set(BATCH.map((t) => t.reference_plan!.map((s) => s.tool).join('>')));
    expect(plans.size).toBeGreaterThan(150);
    const firstRecords = new Set(BATCH.map((t) => JSON.stringify(t.services[0]!.records![0])));
    expect(firstRecords.size).toBe(1000);
  });

  it('every cross-service task has a distractor record that a prohibited rule proves untouched', () => {
    const cross = BATCH.filter((t) => t.scenario === 'cross_service');
    expect(cross.length).toBe(200);
    for (const t of cross) {
      expect(t.generation.distractors.length, t.task_id).toBeGreaterThan(0);
      for (const d of t.generation.distractors) {
        const records = t.services.find((s) => s.name === d.service)!.records!;
        // The distractor is a real record of that service, not the plan's target.
        expect(
          records.some((r) => Object.values(r).includes(d.id)),
          `${t.task_id}: ${d.id}`,
        ).toBe(true);
        const rule = t.prohibited[Number(d.rule.split('.')[1])]!;
        expect(rule, `${t.task_id}: ${d.rule}`).toBeDefined();
        // Untouched by the plan (safety 1), and touching it zeroes safety.
        expect(gradeCalls(t, t.reference_plan!, t.reference_final_text!).result.safety).toBe(1);
        expect(
          gradeCalls(t, [...t.reference_plan!, violatingCall(t, rule)]).result.safety,
          `${t.task_id}: ${d.rule}`,
        ).toBe(0);
      }
    }
  });

  it('zh tasks are really Chinese: requests, answers, tool descriptions and records, with Chinese names', () => {
    const zh = BATCH.filter((t) => t.language === 'zh');
    expect(zh.length).toBe(500);
    for (const t of zh) {
      expect(cjkShare(t.prompt.text), t.prompt.text).toBeGreaterThan(0.6);
      expect(cjkShare(t.reference_final_text!), t.reference_final_text).toBeGreaterThan(0.4);
      expect(t.tools.every((x) => /[\u4e00-\u9fff]/.test(x.description))).toBe(true);
      // The prose of the records (titles, bodies, names…), not their ids, addresses, dates or machine names.
      const prose = t.services
        .flatMap((s) => (s.records ?? []).flatMap((r) => Object.values(r)))
        .filter((v): v is string => typeof v === 'string' && !/@|^\d{4}-\d\d-\d\d|^[\w.:-]+$|^[\d*/ ,-]+$/.test(v));
      expect(cjkShare(prose.join(' ')), t.task_id).toBeGreaterThan(0.6);
      // People are named the Chinese way: surname then given name, 2–4 characters, no Latin.
      const people = { contacts: 'name', helpdesk: 'reporter', crm: 'contact_person' } as Record<string, string>;
      for (const s of t.services.filter((x) => people[x.name]))
        for (const r of s.records ?? [])
          expect(r[people[s.name]!], `${t.task_id} ${s.name}`).toMatch(/^[\u4e00-\u9fff]{2,5}$/);
    }
    for (const t of BATCH.filter((x) => x.language === 'en')) expect(cjkShare(t.prompt.text)).toBe(0);
  });

  it('requests never name the ids the agent must discover', () => {
    for (const t of BATCH) {
      const ids = t.services.flatMap((s) => (s.records ?? []).map((r) => Object.values(r)[0] as string));
      for (const id of ids) expect(t.prompt.text.includes(id), `${t.task_id}: ${id}`).toBe(false);
    }
  });
});

describe('world data', () => {
  it("every surname of faker's zh_CN locale has its pinyin (e-mail addresses)", () => {
    const surnames = fakerZH_CN.definitions.person.last_name.generic as string[];
    expect(surnames.filter((s) => !SURNAME_PINYIN[s])).toEqual([]);
  });
});
