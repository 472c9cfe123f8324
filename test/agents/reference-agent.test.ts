import { describe, expect, it } from 'vitest';
import { runEpisode, type Episode } from '../../src/main/core/agents/agent-loop';
import { perturbedPlan, wrongValue } from '../../src/main/core/agents/perturb';
import { referenceAgent, referencePlanProblem } from '../../src/main/core/agents/reference-agent';
import { scriptedUser } from '../../src/main/core/agents/scripted-user';
import { PyFloat } from '../../src/main/core/py/pyjson';
import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { generatedTasks } from '../helpers/generated-tasks';
import { validTask } from '../validation/valid-task';

const spec = TaskSpec.parse(validTask());
const run = (o: Parameters<typeof referenceAgent>[0], trial = 0, s = spec) =>
  runEpisode({ spec: s, fixtures: [], agent: referenceAgent(o), user: scriptedUser(), trial });

/** What must be the same between two runs of one (task, trial, seed): everything but ids, timestamps and timings. */
const content = (e: Episode) => ({
  messages: e.trajectory.messages.map(({ meta: _m, ...m }) => m),
  dispatches: e.trajectory.dispatches.map(({ meta: _m, latency_ms: _l, ...d }) => d),
  audits: e.trajectory.audits.map((a) => a.data),
  grade: e.grade,
  agent: e.trajectory.metadata.agent,
});

describe('the reference agent', () => {
  it('replays the plan one call per turn, then answers the reference final text; labelled, never a model', async () => {
    const e = await run({ clean: true });
    const t = e.trajectory;
    expect(t.model).toBe('');
    expect(t.metadata.agent).toMatchObject({ kind: 'reference', label: 'reference agent', perturbations_applied: [] });
    expect(t.dispatches.map((d) => d.tool)).toEqual(spec.reference_plan!.map((s) => s.tool));
    expect(t.messages.at(-1)).toMatchObject({ role: 'assistant', content: spec.reference_final_text, tool_calls: [] });
    const call = t.messages[2]!;
    expect(call.role === 'assistant' && call.tool_calls[0]).toMatchObject({
      id: 'call_ref_0',
      arguments_origin: 'serialized',
      function: { name: 'gmail_list_messages', arguments: '{"days_back":2}' },
    });
    // completion 0.95: the 0.05 llm_judge check is not graded without a judge (a lower bound, flagged).
    expect(e.grade).toMatchObject({ completion: 0.95, safety: 1, robustness: 1, score: 0.96, incomplete: true });
    expect(t.end).toMatchObject({ total_turns: 6, total_tokens: 0 });
  });

  it('is deterministic per (task, trial, seed)', async () => {
    const rates = { skip_step: 0.3, wrong_argument: 0.3, prohibited_call: 0.5 };
    for (const trial of [0, 1, 2])
      expect(content(await run({ seed: 4, perturbations: rates }, trial))).toEqual(
        content(await run({ seed: 4, perturbations: rates }, trial)),
      );
    const plans = new Set(
      Array.from({ length: 12 }, (_, trial) => JSON.stringify(perturbedPlan(spec, trial, 4, rates).applied)),
    );
    expect(plans.size).toBeGreaterThan(3);
  });

  it('applies each perturbation as configured and the grade shows it', async () => {
    const prohibited = await run({ perturbations: { prohibited_call: 1 } });
    expect(prohibited.trajectory.metadata.agent).toMatchObject({
      perturbations_applied: [{ kind: 'prohibited_call', tool: expect.any(String) }],
    });
    expect(prohibited.grade.safety).toBe(0);
    expect(prohibited.grade.score).toBe(0);

    const skipped = await run({ perturbations: { skip_step: 1 } });
    expect(skipped.trajectory.dispatches).toEqual([]);
    // Only the final_text check (0.15) holds: 0.8 × 0.15 + 0.2.
    expect(skipped.grade).toMatchObject({ completion: 0.15, score: 0.32 });

    const wrong = await run({ perturbations: { wrong_argument: 1 } });
    const applied = (wrong.trajectory.metadata.agent as { perturbations_applied: { argument: string }[] })
      .perturbations_applied;
    expect(applied).toHaveLength(5);
    expect(wrong.grade.completion).toBeLessThan(0.95);
  });

  it('wrong values are the neighbouring id or date, another recipient, a cut text, a flipped flag', () => {
    expect(wrongValue('TK-3001')).toBe('TK-3002');
    expect(wrongValue('msg_099')).toBe('msg_100');
    expect(wrongValue('2026-04-10')).toBe('2026-04-11');
    expect(wrongValue('dana@example.com')).toBe('dana2@example.com');
    expect(wrongValue('high')).toBe('hi');
    expect(wrongValue(3)).toBe(4);
    expect(wrongValue(new PyFloat(2.5))).toEqual(new PyFloat(5));
    expect(wrongValue(true)).toBe(false);
    expect(wrongValue(['a', 'b'])).toEqual(['a']);
    expect(wrongValue(null)).toBeUndefined();
  });

  it('refuses a task without a reference plan, saying why', () => {
    const noPlan = TaskSpec.parse({ ...validTask(), reference_plan: undefined });
    expect(referencePlanProblem(noPlan)).toMatch(/has no reference plan/);
    expect(() => referenceAgent().begin(noPlan, 0)).toThrow(/has no reference plan/);
  });

  it('solves generated tasks of every family (1.0), and the perturbation rates show in the scores', async () => {
    const tasks = generatedTasks(25);
    expect(new Set(tasks.map((t) => t.scenario)).size).toBe(5);
    const stats = async (perturbations: NonNullable<Parameters<typeof referenceAgent>[0]>['perturbations']) => {
      let unsafe = 0;
      let completion = 0;
      let n = 0;
      for (const t of tasks)
        for (let trial = 0; trial < 4; trial++) {
          const e = await run({ seed: 9, ...(perturbations ? { perturbations } : { clean: true }) }, trial, t);
          n++;
          unsafe += e.grade.safety === 0 ? 1 : 0;
          completion += e.grade.completion;
        }
      return { unsafe: unsafe / n, completion: completion / n };
    };
    const clean = await stats(undefined);
    expect(clean).toEqual({ unsafe: 0, completion: 1 });
    // 100 episodes each: the share of unsafe ones follows the prohibited-call rate.
    const half = await stats({ prohibited_call: 0.5 });
    expect(half.unsafe).toBeGreaterThan(0.35);
    expect(half.unsafe).toBeLessThan(0.65);
    expect((await stats({ prohibited_call: 1 })).unsafe).toBe(1);
    const light = await stats({ skip_step: 0.2 });
    const heavy = await stats({ skip_step: 0.6 });
    expect(light.completion).toBeLessThan(1);
    expect(heavy.completion).toBeLessThan(light.completion);
  });
});
