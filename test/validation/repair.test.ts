import { describe, expect, it, vi } from 'vitest';
import type { Verdict } from '../../src/shared/contract/validation.contract';
import { unifiedDiff } from '../../src/main/core/validation/line-diff';
import { validateAndRepair } from '../../src/main/core/validation/validate';
import { validTask } from './valid-task';

const NOW = new Date('2026-04-10T12:00:00Z');
/** The defect: weights summing to 0.9 (reported checks weighted 0.05 instead of 0.15). */
const brokenWeights = () => {
  const t = validTask();
  (t.checks as { weight: number }[])[3]!.weight = 0.05;
  return t;
};

describe('validateAndRepair: one guided retry', () => {
  it('a regenerate that fixes the defect is accepted on round 2, with the feedback it got and the diff', async () => {
    const regenerate = vi.fn((feedback: Verdict[]) => {
      expect(feedback.map((v) => [v.validator, v.status])).toEqual([['weights', 'fail']]);
      expect(feedback[0]!.messages[0]!.field).toBe('checks');
      return validTask();
    });
    const r = await validateAndRepair(brokenWeights(), regenerate, { now: () => NOW });
    expect(regenerate).toHaveBeenCalledTimes(1);
    expect(r.accepted?.task_id).toBe('HW001_vpn_outage_reply');
    expect(r.rounds.map((x) => [x.round, x.valid, x.created_at])).toEqual([
      [1, false, NOW.toISOString()],
      [2, true, NOW.toISOString()],
    ]);
    expect(r.rounds[0]!.diff).toBe('');
    expect(r.rounds[1]!.diff).toMatch(/^--- round 1\n\+\+\+ round 2\n@@ -\d+,7 \+\d+,7 @@\n/);
    expect(r.rounds[1]!.diff.split('\n').filter((l) => /^[-+] /.test(l))).toEqual([
      '-      "weight": 0.05,',
      '+      "weight": 0.15,',
    ]);
  });

  it('a regenerate that does not fix it: discarded (accepted null), both rounds kept with their verdicts', async () => {
    const r = await validateAndRepair(brokenWeights(), async () => ({ ...brokenWeights(), task_name: 'Still wrong' }), {
      now: () => NOW,
    });
    expect(r.accepted).toBeNull();
    expect(r.rounds.map((x) => x.valid)).toEqual([false, false]);
    expect(r.rounds[1]!.verdicts.find((v) => v.validator === 'weights')!.status).toBe('fail');
    expect(r.rounds[1]!.diff).toContain(
      '-  "task_name": "Escalate the VPN outage and draft a reply",\n+  "task_name": "Still wrong",',
    );
    expect((r.rounds[1]!.candidate as { task_name: string }).task_name).toBe('Still wrong');
  });

  it('a valid first candidate is accepted at once; an unparsable retry is discarded with its verdict', async () => {
    const never = vi.fn();
    const ok = await validateAndRepair(validTask(), never);
    expect(never).not.toHaveBeenCalled();
    expect(ok.rounds).toHaveLength(1);
    const bad = await validateAndRepair(brokenWeights(), () => 'not a task');
    expect(bad.accepted).toBeNull();
    expect(bad.rounds[1]!.verdicts[0]).toMatchObject({ validator: 'structure', status: 'fail' });
  });
});

describe('unified line diff', () => {
  it('answers nothing for equal texts, and hunks with 3 lines of context otherwise', () => {
    expect(unifiedDiff('a\nb', 'a\nb')).toBe('');
    const a = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj';
    expect(unifiedDiff(a, `${a.replace('c', 'X')}\nk`, { from: 'r1', to: 'r2' })).toBe(
      [
        '--- r1',
        '+++ r2',
        '@@ -1,6 +1,6 @@',
        ' a',
        ' b',
        '-c',
        '+X',
        ' d',
        ' e',
        ' f',
        '@@ -8,3 +8,4 @@',
        ' h',
        ' i',
        ' j',
        '+k',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff('', 'x')).toBe('--- before\n+++ after\n@@ -1 +1 @@\n-\n+x\n');
  });
});
