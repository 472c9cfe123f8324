import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTrace } from '../../src/main/core/traces';
import { UpstreamBatch } from '../../src/main/core/upstream-grader/upstream-batch';
import { runUpstreamGrader } from '../../src/main/core/upstream-grader/run-upstream';
import { synthTrajectory } from '../helpers/claw-traces';
import { PYTHON } from '../helpers/python';
import { CLAW_CHECKOUT } from '../helpers/shared-data';
import { tempDir } from '../helpers/temp';

/** Upstream's own checkout at 9365e1a, where this machine has it (the app never ships upstream code). */
const UPSTREAM = CLAW_CHECKOUT ?? '';
// In the shipped subset (goldens too); their grader.py uses the judge object, not judge.client, so the stub serves.
const TASKS = ['T006_email_reply_draft', 'T010_contact_lookup', 'T016_kb_search', 'T029zh_cross_service_meeting'];
const why = !PYTHON.ok
  ? PYTHON.why
  : !TASKS.every((t) => fs.existsSync(path.join(UPSTREAM, 'tasks', t, 'grader.py')))
    ? 'no Claw-Eval checkout beside the repository (../claw-eval-9365e1a) or in CLAW_EVAL_ROOT'
    : null;

describe.skipIf(why !== null)(`real grader.py files in long-lived processes${why ? ` (skipped: ${why})` : ''}`, () => {
  it('answer trace by trace what one process per trace answers', async () => {
    const dir = tempDir();
    const at = { now: () => new Date('2026-03-26T09:00:00Z') };
    const traces = TASKS.flatMap((id) =>
      [synthTrajectory(id), synthTrajectory(id, { keep: () => false })].map((t, i) => {
        const tracePath = path.join(dir, `${id}-${i}.jsonl`);
        fs.writeFileSync(tracePath, writeTrace(t, at));
        return { taskDir: path.join(UPSTREAM, 'tasks', id), tracePath };
      }),
    );
    const judge = { stub_score: 1 };
    const alone = [];
    for (const t of traces) alone.push(await runUpstreamGrader({ root: UPSTREAM, ...t, judge, timeoutMs: 120_000 }));
    // Upstream's grader dependencies may be missing from this Python: then both sides say so alike.
    const batch = new UpstreamBatch({ root: UPSTREAM, judge, workers: 2, timeoutMs: 120_000 });
    try {
      const together = await Promise.all(traces.map((t) => batch.grade(t.taskDir, t.tracePath)));
      expect(together).toEqual(alone);
      if (alone[0]?.ok === false) expect(alone[0].stage).toBe('import claw_eval');
      else expect(together.every((g) => g.ok)).toBe(true);
    } finally {
      await batch.close();
    }
  });
});
