import { describe, expect, it } from 'vitest';
import { pyRound } from '../../src/main/core/lib/py-round';

describe('pyRound on integers', () => {
  it('answers the integer itself for n ≥ 0, as Python does, and still rounds to tens for n < 0', () => {
    for (const x of [1, -1, 7, -7, 12345, 2 ** 53, 2 ** 60, -(2 ** 70), 1e21])
      for (const n of [0, 2, 4]) expect(Object.is(pyRound(x, n), x)).toBe(true);
    expect(Object.is(pyRound(-0, 2), -0)).toBe(true);
    expect(pyRound(125, -1)).toBe(120);
    expect(pyRound(135, -1)).toBe(140);
    expect(pyRound(0.5, 0)).toBe(0);
    expect(pyRound(1.5, 0)).toBe(2);
  });
});
