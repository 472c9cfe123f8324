import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SftOptions } from '../../src/shared/contract/entities/export';
import { LightTable } from '../../src/main/core/export/sft/light-table';
import { compilePrefixPattern, preselect, readLights, type SftRecord } from '../../src/main/core/export/sft/preselect';
import { previewSft } from '../../src/main/core/export/sft';
import { agentRun, rec, trajectory } from './build';

/**
 * Issue 17: the selection's metadata is kept in columns (LightTable), not as an object per record, so an
 * export's memory stays flat from 10k to 1M trajectories. The decisions must not change with it.
 */
describe('LightTable: the selection metadata of every record, in columns', () => {
  const base = {
    taskId: 't',
    trial: null,
    collection: null,
    attemptSet: null,
    reward: null,
    bucket: null,
    override: null,
  };
  const light = { ...base, pool: 'mixed', valid: true, pending: false, prefix: 't' };

  it('gives back what was put in, ids of any script included, over several chunks; finds a repeated id', () => {
    const t = new LightTable();
    const ids = Array.from({ length: 5000 }, (_, i) => (i % 3 ? `r${i}` : `记录-${i}-é`));
    ids.forEach((id, i) =>
      t.push({
        ...light,
        id,
        taskId: `task-${i % 7}`,
        trial: i % 5 ? i : null,
        collection: i % 2 ? 'c1' : null,
        attemptSet: i % 2 ? 'c1' : null,
        reward: i % 4 ? i / 5000 : null,
        bucket: i % 3 ? 'TRIVIAL' : null,
        override: i % 11 ? null : 'exclude',
        valid: i % 13 !== 0,
        pending: i % 17 === 0,
      }),
    );
    expect(t.size).toBe(5000);
    expect(t.light(4999)).toEqual({
      id: 'r4999',
      order: 4999,
      taskId: 'task-1',
      trial: 4999,
      collection: 'c1',
      attemptSet: 'c1',
      reward: 4999 / 5000,
      bucket: 'TRIVIAL',
      override: null,
      pool: 'mixed',
      valid: true,
      pending: false,
      prefix: 't',
    });
    expect(t.light(4998)).toMatchObject({ pending: true, valid: true, bucket: null });
    expect(t.light(0)).toMatchObject({
      id: '记录-0-é',
      trial: null,
      collection: null,
      reward: null,
      override: 'exclude',
    });
    expect(ids.every((id, i) => t.id(i) === id)).toBe(true);
    expect(t.firstRepeatedId()).toBeNull();
    t.push({ ...light, id: 'r5' });
    t.push({ ...light, id: '记录-3-é' });
    expect(t.firstRepeatedId()).toEqual({ index: 5000, earlier: 5 });
    const same = new LightTable();
    for (let i = 0; i < 50_000; i++) same.push({ ...light, id: i < 7 ? `u${i}` : 'x' });
    expect(same.firstRepeatedId()).toEqual({ index: 8, earlier: 7 });
  });

  it('decides as the per-record rule did: supersede chains, duplicates, buckets, overrides, pools', () => {
    const run = (id: string) => trajectory(id, agentRun(id, 3, 3));
    const records: SftRecord[] = [
      rec(run('a'), { taskId: 'A', trial: 0, collectionId: 'c1', bucket: 'KEEP' }),
      rec(run('b'), { taskId: 'A', trial: 0, collectionId: 'c2', supersedesCollections: ['c1'], bucket: 'KEEP' }),
      rec(run('c'), { taskId: 'B', trial: 2, collectionId: 'c1', bucket: 'KEEP' }),
      rec(run('d'), { taskId: 'B', trial: 2, collectionId: 'c1', bucket: 'KEEP' }),
      rec(run('e'), { taskId: 'B', trial: 2, collectionId: 'c1', bucket: 'KEEP', includeOverride: 'exclude' }),
      rec(run('f'), { taskId: 'C', bucket: 'UNSOLVABLE' }),
      rec(run('g'), { taskId: 'D', bucket: null, includeOverride: 'include', pool: 'nope' }),
      rec(run('h'), { taskId: 'E', bucket: 'TRIVIAL', reward: null }),
      rec(run('i'), { taskId: 'F', bucket: 'KEEP', reward: 0.25 }),
      rec(run('j'), { taskId: 'G', bucket: 'KEEP', valid: false }),
    ];
    const p = previewSft({ records, dialect: 'trl' });
    const details = Object.fromEntries(
      Object.entries(p.examples).flatMap(([reason, list]) => list!.map((e) => [e.recordId, `${reason}: ${e.detail}`])),
    );
    expect(details).toEqual({
      a: 'superseded: task A was re-executed in collection c2',
      c: 'duplicate: record d (stored later) has the same task and trial in the same run, agent and collection',
      d: 'duplicate: record e (stored later) has the same task and trial in the same run, agent and collection',
      e: 'excluded_by_curation: excluded by a curation override',
      f: 'unsolvable: task C is UNSOLVABLE',
      g: expect.stringMatching(/^unknown_pool: pool nope has no rule \(known: mixed, /),
      h: 'reward_missing: pool mixed needs a reward ≥ 0.5',
      i: 'below_threshold: reward 0.25 < 0.5 (pool mixed)',
      j: 'invalid_rollout: an invalid rollout (infrastructure error or grader crash)',
    });
    expect(p.report.unsolvableTasks).toEqual(['C']);
  });

  it('keeps the selection state of 200,000 records in under 200 bytes each (~75; objects took ~320)', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const N = 200_000;
    const body = () => {
      throw new Error('not read');
    };
    const records: Iterable<SftRecord> = {
      *[Symbol.iterator]() {
        for (let i = 0; i < N; i++)
          yield {
            recordId: String(i + 1),
            taskId: `task-${i % 5000}`,
            trial: Math.floor(i / 5000) - (i % 100 === 0 ? 1 : 0),
            collectionId: 'bench',
            reward: (i % 10) / 10,
            bucket: null,
            trajectory: body,
          };
      },
    };
    const o = SftOptions.parse({ admittedBuckets: ['UNBUCKETED'] });
    const used = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = used();
    const { table, supersedes } = readLights(records, compilePrefixPattern(o.trivialPrefixPattern));
    const pre = preselect(table, supersedes, o);
    const perRecord = (used() - before) / N;
    expect([table, pre].length).toBe(2); // both still held when measured
    expect(perRecord).toBeLessThan(200);
  }, 120_000);
});
