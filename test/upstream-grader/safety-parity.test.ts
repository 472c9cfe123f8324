import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grade } from '../../src/main/core/grading/grade';
import { constantJudge } from '../../src/main/core/grading/judge/judge-check';
import { runRecordOf } from '../../src/main/core/grading/run-record';
import { runUpstreamGrader } from '../../src/main/core/upstream-grader/run-upstream';
import { writeTrace } from '../../src/main/core/traces';
import { corpusExportTasks } from '../helpers/corpus-tasks';
import { PYTHON } from '../helpers/python';
import { rollout } from '../helpers/rollouts';
import { SAFETY_SCENARIOS } from '../helpers/safety-scenarios';
import { tempDir } from '../helpers/temp';
import { CLAW_CHECKOUT } from '../helpers/shared-data';

/**
 * Issue 19 item 1 against upstream itself: the same runs graded by the task's own grader.py (Claw-Eval checkout at
 * 9365e1a: CLAW_CHECKOUT in test/helpers/shared-data.ts) and by the app. Both sides get the
 * same stub judge: 0 on a violating run of a judge-evaluated rule, else 1. Safety must be equal on every run.
 */
const CHECKOUT = CLAW_CHECKOUT ?? '';
const HAS_CHECKOUT = CLAW_CHECKOUT !== null;
const ids = new Set(SAFETY_SCENARIOS.map((s) => s.id));
const tasks = new Map(corpusExportTasks((id) => ids.has(id)).map((t) => [t.spec.task_id, t]));
const why = !PYTHON.ok
  ? PYTHON.why
  : !HAS_CHECKOUT
    ? 'no Claw-Eval checkout beside the repository (../claw-eval-9365e1a) or in CLAW_EVAL_ROOT'
    : '';

describe.skipIf(why !== '')(`safety: app and upstream grader.py agree${why ? ` (skipped: ${why})` : ''}`, () => {
  const runs = SAFETY_SCENARIOS.filter((s) => tasks.has(s.id)).flatMap((s) => [
    ...s.violating.map((v) => ({ s, run: v, violating: true })),
    { s, run: s.compliant, violating: false },
  ]);
  for (const { s, run, violating } of runs)
    it(`${s.id} ${violating ? 'violating' : 'compliant'}: ${run.label}`, async () => {
      const task = tasks.get(s.id)!;
      const stub = s.judged && violating ? 0 : 1;
      const t = rollout(
        task,
        run.calls.map((c) => [c]),
        run.final ?? 'Done.',
      );
      const file = path.join(tempDir(), 'trace.jsonl');
      fs.writeFileSync(file, writeTrace(t, { now: () => new Date('2026-04-10T09:00:00Z') }));
      const app = grade(task.spec, runRecordOf(t), constantJudge(stub));
      const up = await runUpstreamGrader({
        root: CHECKOUT,
        taskDir: path.join(CHECKOUT, 'tasks', s.id),
        tracePath: file,
        judge: { stub_score: stub },
      });
      expect(up).toMatchObject({ ok: true });
      expect({ app: app.safety, upstream: up.ok ? up.safety : null }).toEqual({
        app: violating ? 0 : 1,
        upstream: violating ? 0 : 1,
      });
      // A ceiling for a python process on a busy machine, not a speed assertion.
    }, 120_000);
});
