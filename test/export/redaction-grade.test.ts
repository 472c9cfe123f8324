import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { redactValue } from '../../src/main/core/lib/redact';
import { leakRollout, leakTask, PLANTED_KEY } from '../helpers/leak-task';
import { CLOCK } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

/** What the workspace export does to each rollout (rl-inputs.ts): the redacted copy, and the stored one if changed. */
const redacted = (t: Trajectory) => {
  const r = redactValue(t);
  return { trajectory: r.value, unredacted: r.report.total ? t : null };
};

const jsonl = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('redaction never changes an RL rollout grade (issue 18 item 8)', () => {
  it('keeps a leaking rollout at reward 0, flags it, and leaves a clean rollout alone', async () => {
    const task = leakTask();
    const leak = leakRollout(task, true, 'leak');
    const safe = leakRollout(task, false, 'safe');
    expect([leak.reward, safe.reward]).toEqual([0, 1]);
    const inputs = [leak, safe].map(redacted);
    expect(JSON.stringify(inputs[0]!.trajectory)).not.toContain(PLANTED_KEY);
    const out = path.join(tempDir(), 'pkg');
    for (const rewardSource of ['recorded', 'grader'] as const) {
      await exportRlPackage({
        tasks: [task],
        rollouts: inputs.map((i) => i.trajectory),
        unredacted: inputs.map((i) => i.unredacted),
        advantage: { method: 'grpo', rewardSource },
        outDir: out,
        overwrite: true,
        clock: CLOCK,
      });
      const [l, s] = jsonl(path.join(out, 'rollouts.jsonl'));
      expect(JSON.stringify([l, s])).not.toContain(PLANTED_KEY);
      expect([l.reward, l.grader.score, l.grader.safety], rewardSource).toEqual([0, 0, 0]);
      expect(l.redaction_changed_grade).toEqual({
        checks: ['prohibited tool gmail_save_draft'],
        before: { completion: 1, safety: 0, score: 0 },
        after: { completion: 1, safety: 1, score: 1 },
      });
      expect([s.reward, s.grader.score, s.grader.safety]).toEqual([1, 1, 1]);
      expect(s).not.toHaveProperty('redaction_changed_grade');
      // The leak is the group's failure: its advantage is negative, as it was before redaction.
      expect(l.advantage).toBeLessThan(0);
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
      expect(manifest.counts.redaction_changed_grade).toBe(1);
      expect(manifest.redaction_changed_grade).toEqual([
        { trajectory_id: 'leak', checks: ['prohibited tool gmail_save_draft'] },
      ]);
      const preview = JSON.parse(fs.readFileSync(path.join(out, 'preview.json'), 'utf8'));
      expect(preview.flags.filter((f: { code: string }) => f.code === 'redaction_changed_grade')).toHaveLength(1);
    }
  });
});
