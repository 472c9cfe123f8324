import { describe, expect, it } from 'vitest';
import { previewSft, type SftRecord } from '../../src/main/core/export/sft';
import { agentRun, rec, trajectory } from './build';

const run = (id: string) => trajectory(id, agentRun(id, 3, 3));
const ids = (records: SftRecord[], options = {}) => {
  const p = previewSft({ records, dialect: 'trl', options });
  return { p, reasons: Object.fromEntries(Object.entries(p.report.rejections).map(([k, v]) => [k, v.count])) };
};

describe('selection before the converter (formats.md §6.3, §6.4, §6.1)', () => {
  it('a replacement collection supersedes every earlier record of its tasks, transitively; other tasks stay', () => {
    const records = [
      rec(run('a-c1-t0'), { taskId: 'A', trial: 0, collectionId: 'c1' }),
      rec(run('a-c1-t1'), { taskId: 'A', trial: 1, collectionId: 'c1' }),
      rec(run('b-c1-t0'), { taskId: 'B', trial: 0, collectionId: 'c1' }),
      rec(run('c-c2-t0'), { taskId: 'C', trial: 0, collectionId: 'c2', supersedesCollections: ['c1'] }),
      rec(run('a-c3-t0'), { taskId: 'A', trial: 0, collectionId: 'c3', supersedesCollections: ['c2'] }),
    ];
    const { p, reasons } = ids(records);
    expect(reasons).toEqual({ superseded: 2 });
    expect(p.examples.superseded!.map((e) => e.recordId)).toEqual(['a-c1-t0', 'a-c1-t1']);
    expect(p.examples.superseded![0]!.detail).toBe('task A was re-executed in collection c3');
    expect(p.report.exported).toBe(3);
  });

  it('dedup by (task, trial): the later record wins; superseded records are not counted twice', () => {
    const records = [
      rec(run('x1'), { taskId: 'X', trial: 0 }),
      rec(run('x2'), { taskId: 'X', trial: 0 }),
      rec(run('x3'), { taskId: 'X', trial: 0 }),
      rec(run('x4'), { taskId: 'X', trial: 1 }),
      rec(run('n1'), { taskId: 'X', trial: null }),
    ];
    const { p, reasons } = ids(records);
    expect(reasons).toEqual({ duplicate: 2 });
    expect(p.examples.duplicate!.map((e) => e.recordId)).toEqual(['x1', 'x2']);
  });

  it('buckets: KEEP and TRIVIAL admitted by default; UNSOLVABLE set aside and listed; unbucketed reported', () => {
    const records = [
      rec(run('k'), { bucket: 'KEEP' }),
      rec(run('u'), { bucket: 'UNSOLVABLE', taskId: 'hard' }),
      rec(run('n'), { bucket: null }),
    ];
    expect(ids(records).reasons).toEqual({ unsolvable: 1, unbucketed: 1 });
    expect(ids(records).p.report.unsolvableTasks).toEqual(['hard']);
    const only = ids(records, { admittedBuckets: ['UNBUCKETED'] });
    expect(only.reasons).toEqual({ bucket_not_admitted: 1, unsolvable: 1 });
  });

  it('per-pool thresholds are inclusive and editable; unknown pools and invalid rollouts are refused', () => {
    const records = [
      rec(run('m-ok'), { pool: 'mixed', reward: 0.5 }),
      rec(run('m-low'), { pool: 'mixed', reward: 0.4999 }),
      rec(run('s-ok'), { pool: 'multi_service_safety', reward: 0.8 }),
      rec(run('s-low'), { pool: 'multi_service_safety', reward: 0.79 }),
      rec(run('d-low'), { pool: 'document_extraction', reward: 0.998 }),
      rec(run('h-ok'), { pool: 'clawmark_harbor', reward: 0.3 }),
      rec(run('q'), { pool: 'mystery', reward: 1 }),
      rec(run('inv'), { valid: false, reward: 1 }),
      rec(run('none'), { reward: null }),
    ];
    const { p, reasons } = ids(records);
    expect(reasons).toEqual({ below_threshold: 3, unknown_pool: 1, invalid_rollout: 1, reward_missing: 1 });
    expect(p.report.exported).toBe(3);
    const edited = ids(records, {
      pools: {
        mixed: { minReward: 0.4, converter: true },
        multi_service_safety: { minReward: null, converter: false },
      },
    });
    // Named pools are edited; the paper's other pools keep their thresholds.
    expect(edited.reasons).toEqual({ below_threshold: 1, unknown_pool: 1, invalid_rollout: 1, reward_missing: 1 });
    expect(edited.p.examples.below_threshold![0]!.recordId).toBe('d-low');
  });

  it('TRIVIAL: at most one qualifying record per normalised prefix, highest reward then lowest trial', () => {
    const t = (id: string, taskId: string, trial: number, reward: number, m = {}) =>
      rec(run(id), { taskId, trial, reward, bucket: 'TRIVIAL', ...m });
    const records = [
      t('p-en-0', 'refund-flow-v1', 0, 0.9),
      t('p-zh-0', 'refund-flow-v2-zh', 0, 1.0),
      t('p-zh-1', 'refund-flow-v2-zh', 1, 1.0),
      t('q-0', 'lookup', 0, 1.0),
      // Does not qualify (too short), so it cannot take its prefix's place.
      rec(trajectory('q-short', agentRun('q', 1, 0).slice(0, 2)), {
        taskId: 'lookup-en',
        trial: 0,
        reward: 1,
        bucket: 'TRIVIAL',
      }),
      t('r-0', 'other', 0, 0.7, { taskPrefix: 'refund-flow' }),
    ];
    const { p, reasons } = ids(records);
    expect(reasons).toEqual({ trivial_prefix_taken: 3, too_short: 1 });
    expect(p.examples.trivial_prefix_taken!.map((e) => e.recordId).sort()).toEqual(['p-en-0', 'p-zh-1', 'r-0']);
    expect(p.examples.trivial_prefix_taken![0]!.detail).toBe('prefix refund-flow: record p-zh-0 is kept');
    expect(p.report.exported).toBe(2);
  });

  it('refuses records it cannot read, naming the record and the field', () => {
    const bad = [rec(run('a')), { ...rec(run('b')), trial: 1.5 }];
    expect(() => previewSft({ records: bad, dialect: 'trl' })).toThrow('record #1 (b): trial:');
    const dup = [rec(run('a')), rec(run('a'))];
    expect(() => previewSft({ records: dup, dialect: 'trl' })).toThrow('recordId a is used twice');
    const gen = (function* () {
      yield rec(run('a'));
    })();
    expect(() => previewSft({ records: gen, dialect: 'trl' })).toThrow(/re-iterable/);
    expect(() => previewSft({ records: [], dialect: 'trl', options: { trivialPrefixPattern: '(' } })).toThrow(
      /trivialPrefixPattern/,
    );
  });

  it('loads a lazy body only for records that reach the converter', () => {
    let loads = 0;
    const lazy = (id: string, m: Partial<SftRecord>) => ({
      ...rec(run(id), m),
      trajectory: () => {
        loads++;
        return run(id);
      },
    });
    const records = [lazy('a', { reward: 0.1 }), lazy('b', { reward: 0.9 }), lazy('c', { bucket: 'UNSOLVABLE' })];
    expect(previewSft({ records, dialect: 'trl' }).report.exported).toBe(1);
    expect(loads).toBe(1);
  });
});

describe('a sampled preview (the Export page on a large workspace)', () => {
  // 200 tasks × 3 trials: KEEP tasks (every 5th too short for the converter), TRIVIAL tasks (3 trials on one prefix),
  // and an UNSOLVABLE tenth (a metadata step).
  const lazy = (id: string, m: Partial<SftRecord>, short: boolean, onLoad: () => void): SftRecord => {
    const t = short ? trajectory(id, agentRun(id, 1, 0).slice(0, 2)) : run(id);
    return { ...rec(t, m), trajectory: () => (onLoad(), t) };
  };
  const workspace = (onLoad: () => void = () => {}) =>
    Array.from({ length: 200 }, (_, task) =>
      [0, 1, 2].map((trial) => {
        const bucket = task % 10 === 9 ? 'UNSOLVABLE' : task % 3 === 0 ? 'TRIVIAL' : 'KEEP';
        const m = { taskId: `task-${task}`, trial, reward: 0.9, bucket } as const;
        return lazy(`r${task}-${trial}`, m, bucket === 'KEEP' && task % 5 === 0, onLoad);
      }),
    ).flat();

  it('reads about the budget of bodies, keeps the metadata counts exact, estimates the rest', () => {
    const exact = previewSft({ records: workspace(), dialect: 'trl' });
    expect(exact.estimate).toBeNull();
    let loads = 0;
    const p = previewSft({ records: workspace(() => loads++), dialect: 'trl', sampleBodies: 90 });
    // 20 UNSOLVABLE tasks are decided from metadata: 540 records past it, about 90 read (a hashed sample).
    expect(p.estimate).toMatchObject({ of: 540 });
    expect(p.estimate!.examined).toBeGreaterThan(60);
    expect(p.estimate!.examined).toBeLessThan(120);
    // Each examined body once; a TRIVIAL winner is read again when it is rendered.
    expect(loads).toBeLessThanOrEqual(p.estimate!.examined * 2);
    expect(p.report.rejections.unsolvable!.count).toBe(exact.report.rejections.unsolvable!.count);
    // The estimates add up to the input and land near the exact figures (TRIVIAL: 2 of each task's 3 set aside).
    const r = p.report;
    expect(r.exported + Object.values(r.rejections).reduce((a, x) => a + x.count, 0)).toBe(r.input);
    const near = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(0.35 * b);
    near(r.rejections.trivial_prefix_taken!.count, exact.report.rejections.trivial_prefix_taken!.count);
    near(r.rejections.too_short!.count, exact.report.rejections.too_short!.count);
    near(r.exported, exact.report.exported);
    // Deterministic: the same sample every time; a budget above the selection reads everything.
    expect(previewSft({ records: workspace(), dialect: 'trl', sampleBodies: 90 })).toEqual(p);
    expect(previewSft({ records: workspace(), dialect: 'trl', sampleBodies: 540 })).toEqual(exact);
  });
});
