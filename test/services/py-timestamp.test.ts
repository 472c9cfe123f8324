import { describe, expect, it } from 'vitest';
import { pyIsoTimestamp } from '../../src/main/core/services/define';

describe('pyIsoTimestamp', () => {
  it("writes Python's isoformat for each instant, alternating instants and repeats alike", () => {
    const a = new Date('2026-03-05T09:00:00Z');
    const b = new Date('2026-03-05T09:00:00.123Z');
    for (let i = 0; i < 3; i++) {
      expect(pyIsoTimestamp(a)).toBe('2026-03-05T09:00:00+00:00');
      expect(pyIsoTimestamp(a)).toBe('2026-03-05T09:00:00+00:00');
      expect(pyIsoTimestamp(b)).toBe('2026-03-05T09:00:00.123000+00:00');
      expect(pyIsoTimestamp(new Date(b.getTime() + 1))).toBe('2026-03-05T09:00:00.124000+00:00');
    }
    expect(() => pyIsoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
