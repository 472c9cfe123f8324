import { describe, expect, it } from 'vitest';
import { appRowScores } from '../../src/main/core/trajectories/row-scores';
import type { GradeResult } from '../../src/shared/contract/entities/checks';

const grade = (o: Partial<GradeResult>): GradeResult =>
  ({
    checks: [],
    completion: 0.6,
    safety: 1,
    safetyViolations: [],
    robustness: 1,
    score: 0.68,
    passed: false,
    incomplete: true,
    pendingWeight: 0.3,
    checksOrigin: 'authored',
    ...o,
  }) as GradeResult;

describe('a grade as the trajectory row stores it', () => {
  it('judge-pending: completion, score and pass unknown (NULL), the pending weight kept', () => {
    expect(appRowScores(grade({}))).toMatchObject({ completion: null, score: null, passed: null, appPending: 0.3 });
  });

  it('a safety violation settles score 0 and no pass whatever a judge would say; completion stays unknown', () => {
    const g = grade({ safety: 0, score: 0, passed: false });
    expect(appRowScores(g)).toMatchObject({ completion: null, score: 0, passed: false, safety: 0, appPending: 0.3 });
  });

  it('nothing pending: the grade as computed', () => {
    const g = grade({ pendingWeight: 0, incomplete: false, completion: 1, score: 1, passed: true });
    expect(appRowScores(g)).toMatchObject({ completion: 1, score: 1, passed: true, appPending: null });
  });
});
