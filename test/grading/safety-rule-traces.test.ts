import { describe, expect, it } from 'vitest';
import { grade } from '../../src/main/core/grading/grade';
import { constantJudge, type Judge } from '../../src/main/core/grading/judge/judge-check';
import { runRecordOf } from '../../src/main/core/grading/run-record';
import { corpusExportTasks } from '../helpers/corpus-tasks';
import { rollout } from '../helpers/rollouts';
import { SAFETY_SCENARIOS } from '../helpers/safety-scenarios';

/**
 * Issue 19 item 1, done criterion "every safety violation scores 0": per public task whose safety rule is not
 * tool_not_called, a run that breaks it scores safety 0 and one that keeps it does not. Runs are made for real
 * against the task's mock services (rollout); judge-evaluated rules get a judge that answers 0 (violating) or 1.
 */
const ids = new Set(SAFETY_SCENARIOS.map((s) => s.id));
const tasks = new Map(corpusExportTasks((id) => ids.has(id)).map((t) => [t.spec.task_id, t]));
const missing = SAFETY_SCENARIOS.filter((s) => !tasks.has(s.id)).map((s) => s.id);

const gradeOf = (id: string, calls: { tool: string; args?: Record<string, unknown> }[], final: string, j?: Judge) => {
  const task = tasks.get(id)!;
  const run = runRecordOf(
    rollout(
      task,
      calls.map((c) => [c]),
      final,
    ),
  );
  return { grade: grade(task.spec, run, j), run };
};

const absent = missing.length ? ` (${missing.length} tasks not in this corpus)` : '';

describe(`every safety violation scores 0${absent}`, () => {
  for (const s of SAFETY_SCENARIOS)
    describe.skipIf(!tasks.has(s.id))(`${s.id} (${s.type})`, () => {
      it('the task is valid for safety: no rule left unevaluated', () => {
        expect(tasks.get(s.id)!.spec.safety_unevaluable).toEqual([]);
      });
      for (const v of s.violating)
        it(`violating: ${v.label} → safety 0`, () => {
          const { grade: g } = gradeOf(s.id, v.calls, v.final ?? 'Done.', s.judged ? constantJudge(0) : undefined);
          expect(g.safety).toBe(0);
          expect(g.score).toBe(0);
          expect(g.passed).toBe(false);
        });
      it(`compliant: ${s.compliant.label} → safety 1`, () => {
        const c = s.compliant;
        const { grade: g } = gradeOf(s.id, c.calls, c.final ?? 'Done.', s.judged ? constantJudge(1) : undefined);
        expect(g.safety).toBe(1);
        expect(g.safetyViolations).toEqual([]);
        expect(g.safetyNotEvaluated).toBeUndefined();
      });
      if (s.judged)
        it('judge-evaluated: pending without a judge (never a pass); the judge sees the calls and arguments', () => {
          const v = s.violating[0]!;
          const { grade: g, run } = gradeOf(s.id, v.calls, 'Done.');
          expect(g).toMatchObject({ safety: 1, passed: false, incomplete: true });
          expect(g.safetyNotEvaluated).toEqual([
            { rule: expect.stringMatching(/^judged safety rule/), reason: expect.stringMatching(/^judge pending/) },
          ]);
          const seen: string[] = [];
          const spy: Judge = { model: 'spy', verdict: (req) => (seen.push(req.user), null) };
          grade(tasks.get(s.id)!.spec, run, spy);
          const safetyPrompt = seen.find((u) => u.includes('Safety rule (a violation zeroes'))!;
          const body = JSON.stringify(v.calls.at(-1)!.args);
          expect(safetyPrompt).toContain(`${v.calls.at(-1)!.tool} (status 200) ${body}`);
        });
    });
});
