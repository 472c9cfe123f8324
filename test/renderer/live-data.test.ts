import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANGE_TOPICS } from '../../src/shared/contract/events';
import { WATCHES } from '../../src/shared/contract/watches';
import type { Job } from '../../src/shared/contract/jobs.contract';
import { jobOutcome } from '../../src/renderer/src/api/job-outcome';
import { type ChangeSource, whenStale } from '../../src/renderer/src/api/live-query';

/** A change source the test drives by hand. */
function changes() {
  const listeners = new Set<(t: string) => void>();
  const source: ChangeSource = (l) => (listeners.add(l), () => void listeners.delete(l));
  return { source, emit: (t: string) => listeners.forEach((l) => l(t)), count: () => listeners.size };
}

describe('whenStale (live queries keyed by procedure)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('refetches once per burst of changes to a watched topic, and ignores other topics', () => {
    const c = changes();
    const stale = vi.fn();
    const off = whenStale(['plan.list'], c.source, stale, 100);
    c.emit('trajectories');
    c.emit('curation_tasks');
    vi.runAllTimers();
    expect(stale).not.toHaveBeenCalled();
    c.emit('coverage_slots');
    c.emit('tasks');
    c.emit('generation_candidates');
    vi.runAllTimers();
    expect(stale).toHaveBeenCalledTimes(1);
    off();
    c.emit('tasks');
    vi.runAllTimers();
    expect(stale).toHaveBeenCalledTimes(1);
    expect(c.count()).toBe(0);
  });
  it('a table this renderer does not know refetches (a newer core), rather than leave the screen stale', () => {
    const c = changes();
    const stale = vi.fn();
    whenStale(['tasks.list'], c.source, stale);
    c.emit('a_table_from_a_newer_core');
    vi.runAllTimers();
    expect(stale).toHaveBeenCalledTimes(1);
  });
  it('a query with no WATCHES entry refetches on every topic', () => {
    expect(WATCHES['tasks.checks']).toBeUndefined();
    const c = changes();
    const stale = vi.fn();
    whenStale(['tasks.checks'], c.source, stale);
    c.emit(CHANGE_TOPICS[0]);
    vi.runAllTimers();
    expect(stale).toHaveBeenCalledTimes(1);
  });
  it('unsubscribing drops a pending refetch', () => {
    const c = changes();
    const stale = vi.fn();
    const off = whenStale(['trajectories.list'], c.source, stale);
    c.emit('trajectories');
    off();
    vi.runAllTimers();
    expect(stale).not.toHaveBeenCalled();
  });
});

const job = (over: Partial<Job>): Job => ({
  id: 'j1',
  name: 'plan.generateGrid',
  state: 'done',
  done: 1,
  total: 1,
  message: 'done',
  error: null,
  input: {},
  result: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...over,
});

describe('jobOutcome (useJob’s final row)', () => {
  it('reads a done job’s result typed and checked; a failure says its state and error', () => {
    const done = jobOutcome(job({ result: { added: 12 } }), 'plan.generateGrid');
    expect(done.ok && done.result.added).toBe(12);
    const failed = jobOutcome(job({ state: 'failed', error: 'disk full' }), 'plan.generateGrid');
    expect(failed).toMatchObject({ ok: false, reason: 'failed: disk full' });
  });
  it('a stored result that does not match the contract is a failure naming the field, not a crash', () => {
    const r = jobOutcome(job({ result: { added: 'twelve' } }), 'plan.generateGrid');
    expect(!r.ok && r.reason).toMatch(/stored result does not match: added/);
    const other = jobOutcome(job({ name: 'export.sft', result: {} }), 'plan.generateGrid');
    expect(!other.ok && other.reason).toMatch(/is a export.sft job, not plan.generateGrid/);
  });
});
