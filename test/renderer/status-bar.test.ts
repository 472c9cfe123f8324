import { describe, expect, it } from 'vitest';
import { singular } from '../../src/renderer/src/grids/StatusBar';

describe('status bar nouns', () => {
  it.each([
    ['trajectories', 'trajectory'],
    ['tasks', 'task'],
    ['records', 'record'],
    ['rows', 'row'],
  ])('one of %s is one %s', (plural, one) => {
    expect(singular(plural)).toBe(one);
  });
});
