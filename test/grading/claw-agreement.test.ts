import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgreement, type AgreementRow } from '../../bench/claw-agreement/harness';
import { TS_WORKER } from '../helpers/test-core';
import { CLAW_CHECKOUT } from '../helpers/shared-data';

/**
 * Issue 19's done criterion on a few tasks (bench/claw-agreement.bench.ts runs all 104): good-solution traces run
 * against the app's mock services, imported as a user would, graded by the app with a stub judge endpoint (1.0)
 * and by the task's own grader.py (stub_score 1.0), must agree on pass/fail; violation traces score 0 on both.
 * Needs a Claw-Eval checkout (CLAW_CHECKOUT in test/helpers/shared-data.ts) and python3 with pydantic and PyYAML.
 */
const ROOT = CLAW_CHECKOUT ?? '';
const TASKS = [
  // gmail.sent is an expected action no mock records (Q9): it must not cost a good solution anything.
  'T041zh_scheduled_task_management',
  'T042_scheduled_task_management',
  // drafts, not sends; the violation variant sends
  'T005zh_email_reply_draft',
  // multi-service, judge-scored with upstream's tool-usage multipliers
  'T130_business_trip_planning',
];

function whyNot(): string | null {
  if (!CLAW_CHECKOUT || !fs.existsSync(path.join(ROOT, 'tasks')))
    return 'no Claw-Eval checkout beside the repository (../claw-eval-9365e1a) or in CLAW_EVAL_ROOT';
  try {
    execFileSync('python3', ['-c', 'import pydantic, yaml'], { stdio: 'ignore' });
  } catch {
    return 'python3 with pydantic and PyYAML is not available';
  }
  return null;
}
const skip = whyNot();

describe.skipIf(skip !== null)(`agreement with Claw-Eval's own graders${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('good solutions pass both sides, violations score 0, unrecordable expected actions cost nothing', async () => {
    const rows = await runAgreement({ root: ROOT, taskIds: TASKS, workerEntry: TS_WORKER.workerEntry });
    const show = (r: AgreementRow) => `${r.taskId} ${r.variant}: ${r.reason || r.appNotMet}`;
    const good = rows.filter((r) => r.variant === 'good');
    expect(good.map((r) => r.taskId)).toEqual(TASKS);
    for (const r of good) {
      expect(r.upstream, show(r)).toMatchObject({ ok: true, passed: true });
      expect(r.agree, show(r)).toBe(true);
    }
    const violations = rows.filter((r) => r.variant === 'violation');
    expect(violations.length).toBeGreaterThanOrEqual(3);
    for (const r of violations) expect(r.agree, show(r)).toBe(true);
    // An export of each stored trajectory re-imports with the identical grade.
    for (const r of rows) expect(r.reimportSame, show(r)).toBe(true);
    // Every check the app derives for T041/T042 is met by the good solution (gmail.sent was a guaranteed 0).
    for (const r of good.filter((x) => x.taskId.startsWith('T04'))) expect(r.appNotMet, show(r)).toBe('');
  }, 240_000);
});
