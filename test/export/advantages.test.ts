import { describe, expect, it } from 'vitest';
import { gdpoBatch } from '../../src/main/core/export/advantages/gdpo';
import { gigpoGroup } from '../../src/main/core/export/advantages/gigpo';
import { drGrpoGroup, grpoGroup } from '../../src/main/core/export/advantages/grpo';

const close = (got: (number | null)[], want: (number | null)[], digits = 4) => {
  expect(got).toHaveLength(want.length);
  got.forEach((g, i) => (want[i] === null ? expect(g).toBeNull() : expect(g).toBeCloseTo(want[i]!, digits)));
};

describe('GRPO (formats.md §4.1 worked examples, population σ, floor 0.05)', () => {
  it('[1,1,0,0,0,0,0,0]: μ 0.25, σ 0.4330 → +1.7321 ×2, −0.5774 ×6', () => {
    const g = grpoGroup([1, 1, 0, 0, 0, 0, 0, 0]);
    expect(g.mean).toBe(0.25);
    expect(g.std).toBeCloseTo(0.433, 4);
    close(g.advantages, [1.7321, 1.7321, -0.5774, -0.5774, -0.5774, -0.5774, -0.5774, -0.5774]);
    expect(g.noSignal).toBe(false);
  });
  it('near-ties: 0.9 ×7 and 0.92, σ 0.0066 is floored to 0.05 → −0.05 ×7, +0.35', () => {
    const g = grpoGroup([0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.92]);
    expect(g.std).toBeCloseTo(0.0066, 4);
    close(g.advantages, [-0.05, -0.05, -0.05, -0.05, -0.05, -0.05, -0.05, 0.35]);
  });
  it('all equal: every advantage exactly 0, the group stays valid, "no signal"', () => {
    const g = grpoGroup(new Array(8).fill(1));
    expect(g.advantages).toEqual(new Array(8).fill(0));
    expect(g).toMatchObject({ valid: true, noSignal: true, std: 0 });
    // Equal non-dyadic floats: σ would come out as ~1e-17, never a spurious ±0 advantage.
    expect(grpoGroup([0.1 + 0.2, 0.1 + 0.2, 0.1 + 0.2]).advantages).toEqual([0, 0, 0]);
  });
  it('invalid rollouts are removed before the statistics and get no advantage', () => {
    const g = grpoGroup([1, null, 0]);
    close(g.advantages, [1, null, -1]);
    expect(g.mean).toBe(0.5);
  });
  it("one valid rollout follows the paper's zero-variance rule: advantage 0, valid, no signal (issue 18)", () => {
    expect(grpoGroup([1, null])).toMatchObject({ valid: true, advantages: [0, null], noSignal: true, mean: 1 });
    expect(drGrpoGroup([null, 0.4])).toMatchObject({ valid: true, advantages: [null, 0], noSignal: true });
  });
  it('no valid rollout: the group is invalid, nobody gets an advantage', () => {
    expect(grpoGroup([null, null])).toMatchObject({ valid: false, advantages: [null, null], noSignal: false });
    expect(grpoGroup([])).toMatchObject({ valid: false });
  });
});

describe('Dr.GRPO (§4.2): A = r − μ, no σ', () => {
  it('[1,1,0,0,0,0,0,0] → +0.75 ×2, −0.25 ×6', () => {
    close(drGrpoGroup([1, 1, 0, 0, 0, 0, 0, 0]).advantages, [0.75, 0.75, -0.25, -0.25, -0.25, -0.25, -0.25, -0.25]);
  });
  it('near-ties are not blown up: 0.9 ×3, 0.92 → −0.005 ×3, +0.015', () => {
    close(drGrpoGroup([0.9, 0.9, 0.9, 0.92]).advantages, [-0.005, -0.005, -0.005, 0.015], 6);
  });
});

describe('GDPO (§4.3): per-dimension group normalisation, weighted sum, batch normalisation', () => {
  const completion = [1, 0.5, 0.5, 0];
  const safety = [1, 1, 0, 1];
  const rows = completion.map((c, i) => ({ completion: c, safety: safety[i]! }));
  const equal = { completion: 1, safety: 1 };

  it('reproduces the reference table: S = +1.992, +0.577, −1.732, −0.837; A = +1.408, +0.408, −1.225, −0.592', () => {
    const b = gdpoBatch([rows], equal);
    close(b.groups[0]!.combined, [1.992, 0.577, -1.732, -0.837], 3);
    close(b.groups[0]!.advantages, [1.408, 0.408, -1.225, -0.592], 3);
    expect(b.batchMean).toBeCloseTo(0, 12);
  });
  it('differs from sum-then-normalise (plain GRPO on c + s: +1.342, +0.447, −1.342, −0.447)', () => {
    close(grpoGroup(rows.map((r) => r.completion + r.safety)).advantages, [1.342, 0.447, -1.342, -0.447], 3);
  });
  it('a zero-variance group stays exactly 0 and still counts in the batch σ', () => {
    const flat = new Array(4).fill({ completion: 1, safety: 1 });
    const b = gdpoBatch([rows, flat], equal);
    expect(b.groups[1]!.advantages).toEqual([0, 0, 0, 0]);
    expect(b.groups[1]!.noSignal).toBe(true);
    // σ_B over 8 values whose squares sum to 8.0015 (the 4 S values above, then four 0s).
    const sumSq = [1.9916, 0.5774, -1.7321, -0.8369].reduce((s, x) => s + x * x, 0);
    expect(b.batchStd).toBeCloseTo(Math.sqrt(sumSq / 8), 3);
    close(
      b.groups[0]!.advantages,
      [1.992, 0.577, -1.732, -0.837].map((s) => s / Math.sqrt(sumSq / 8)),
      2,
    );
  });
  it('a flat dimension contributes nothing and is reported; weights scale each dimension', () => {
    const b = gdpoBatch([rows.map((r) => ({ ...r, robustness: 1 }))], { completion: 2, safety: 1, robustness: 1 });
    expect(b.groups[0]!.flatDims).toEqual({ completion: false, safety: false, robustness: true });
    // completion Â = (c − 0.5)/0.3536 → ±1.414, ×2; safety Â = +0.577 / −1.732.
    close(b.groups[0]!.combined, [2 * Math.SQRT2 + 0.5774, 0.5774, -1.7321, -2 * Math.SQRT2 + 0.5774], 3);
  });
  it('invalid rollouts and groups without a valid one are left out of the batch; a singleton joins with S = 0', () => {
    const b = gdpoBatch([[rows[0]!, null, rows[3]!], [null]], equal);
    expect(b.groups[1]).toMatchObject({ valid: false, advantages: [null] });
    // Group 0: completion 1 vs 0 → ±1, safety equal → 0; S = ±1; batch μ 0, σ 1.
    close(b.groups[0]!.advantages, [1, null, -1]);
    const lone = gdpoBatch([[rows[0]!, null, rows[3]!], [rows[1]!]], equal);
    expect(lone.groups[1]).toMatchObject({ valid: true, noSignal: true, combined: [0], advantages: [0] });
    // S = 1, −1, 0 → σ_B √(2/3).
    close(lone.groups[0]!.advantages, [Math.sqrt(1.5), null, -Math.sqrt(1.5)]);
  });
});

describe('GiGPO (§4.4): episode advantages plus step advantages within anchor groups', () => {
  // Three rollouts. R = 1, 0, 1; steps keyed by state: s0 is the shared start, sA is reached twice.
  const group = [
    { reward: 1, stepKeys: ['s0', 'sA', 'sB'] },
    { reward: 0, stepKeys: ['s0', 'sA'] },
    { reward: 1, stepKeys: ['s0', 'sC'] },
  ];

  it('mean_std_norm, γ 0.5, ω 1: hand-computed', () => {
    const g = gigpoGroup(group, { gamma: 0.5, omega: 1, mode: 'mean_std_norm' });
    // Episode: μ 2/3, σ √(6/27) = 0.4714 → +0.7071, −1.4142, +0.7071.
    close(g.advantages, [Math.SQRT1_2, -Math.SQRT2, Math.SQRT1_2]);
    // Returns γ^(T−1−t)·R: [0.25, 0.5, 1], [0, 0], [0.5, 1].
    expect(g.steps.map((s) => s!.map((x) => x.ret))).toEqual([
      [0.25, 0.5, 1],
      [0, 0],
      [0.5, 1],
    ]);
    // s0: G = .25, 0, .5 → μ .25, σ .2041 → 0, −1.2247, +1.2247. sA: .5, 0 → ±1. sB, sC singletons → 0.
    close(
      g.steps[0]!.map((s) => s.stepAdvantage),
      [0, 1, 0],
    );
    close(
      g.steps[1]!.map((s) => s.stepAdvantage),
      [-1.2247, -1],
    );
    close(
      g.steps[2]!.map((s) => s.stepAdvantage),
      [1.2247, 0],
    );
    expect(g.steps.map((s) => s!.map((x) => x.anchorSize))).toEqual([
      [3, 2, 1],
      [3, 2],
      [3, 1],
    ]);
    close(
      g.steps[0]!.map((s) => s.advantage),
      [Math.SQRT1_2, 1.7071, Math.SQRT1_2],
    );
    close(
      g.steps[1]!.map((s) => s.advantage),
      [-2.639, -2.4142],
    );
    close(
      g.steps[2]!.map((s) => s.advantage),
      [1.93185, Math.SQRT1_2],
    );
  });
  it('mean_norm divides by 1; ω scales the step part', () => {
    const g = gigpoGroup(group, { gamma: 0.5, omega: 0.5, mode: 'mean_norm' });
    close(g.advantages, [1 / 3, -2 / 3, 1 / 3]);
    // s0: G − μ = 0, −0.25, +0.25; sA: ±0.25.
    close(
      g.steps[0]!.map((s) => s.advantage),
      [1 / 3, 1 / 3 + 0.125, 1 / 3],
    );
    close(
      g.steps[1]!.map((s) => s.advantage),
      [-2 / 3 - 0.125, -2 / 3 - 0.125],
    );
  });
  it('no shared state: reduces to the episode advantages; invalid rollouts join no anchor group', () => {
    const g = gigpoGroup(
      [
        { reward: 1, stepKeys: ['a', 'b'] },
        { reward: 0, stepKeys: ['c'] },
        { reward: null, stepKeys: ['a', 'b'] },
      ],
      { gamma: 1, omega: 1, mode: 'mean_std_norm' },
    );
    close(g.advantages, [1, -1, null]);
    expect(g.steps[2]).toBeNull();
    expect(g.steps[0]!.map((s) => [s.anchorSize, s.advantage])).toEqual([
      [1, 1],
      [1, 1],
    ]);
  });
  it('an invalid group gives no steps; a singleton gets 0 everywhere (zero-variance rule)', () => {
    expect(gigpoGroup([{ reward: null, stepKeys: ['a'] }], { gamma: 1, omega: 1, mode: 'mean_norm' }).steps).toEqual([
      null,
    ]);
    const lone = gigpoGroup([{ reward: 1, stepKeys: ['a', 'b'] }], { gamma: 1, omega: 1, mode: 'mean_std_norm' });
    expect(lone.steps[0]!.map((s) => s.advantage)).toEqual([0, 0]);
  });
});
