import { describe, expect, it } from 'vitest';
import { needsConfirmation, regradeOutcome } from '../../src/renderer/src/features/trajectories/regrade-text';

const result = {
  regraded: 40,
  skipped: 2,
  changed: 31,
  pending: 3,
  disagreements: 7,
  judge: { endpoint: 'judge', asked: 30, cached: 10, failed: 3, problems: [] },
};

describe('Re-grade… dialog texts', () => {
  it('asks for a confirmation above 1,000 rows only', () => {
    expect(needsConfirmation(1000)).toBe(false);
    expect(needsConfirmation(1001)).toBe(true);
  });

  it('says what was graded, asked of the judge, left pending and now disagrees', () => {
    expect(regradeOutcome(result)).toBe(
      'Re-graded 40 (2 skipped: not graded), 31 with another score. Judge judge: asked 30, cached 10, failed 3. ' +
        '3 still judge pending; 7 now disagree with their score of record.',
    );
    expect(regradeOutcome({ ...result, skipped: 0, judge: { ...result.judge, endpoint: null } })).toBe(
      'Re-graded 40, 31 with another score. No judge asked. 3 still judge pending; 7 now disagree with their score ' +
        'of record.',
    );
  });
});
