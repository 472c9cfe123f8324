import { describe, expect, it } from 'vitest';
import type { MutationContext, QueryContext } from '../../src/main/core/context';
import { readHandle, writeHandle, type ReadDb, type WriteDb } from '../../src/main/core/db/sqlite';
import type { ContextOf } from '../../src/main/core/lib/handler-types';
import type { JobName } from '../../src/main/core/jobs/job-types';
import { JOB_DEFINITIONS } from '../../src/main/core/rpc/job-registry';
import { contract } from '../../src/shared/contract';

/**
 * The handle types are the guarantee: tsc -b checks this file, and each @ts-expect-error fails the
 * build ("unused") the day a query handle can write again. The runtime lines keep vitest honest.
 */
describe('database handles', () => {
  it('a query handle cannot run a statement; a write handle can', () => {
    const reads = (db: ReadDb) => {
      // @ts-expect-error run() does not exist on a read statement
      db.prepare('DELETE FROM jobs').run();
      return db.prepare('SELECT 1').get();
    };
    const writes = (db: WriteDb) => db.prepare('DELETE FROM jobs').run();
    expect(typeof reads).toBe('function');
    expect(typeof writes).toBe('function');
  });

  it('queries and job starts get the read handle; only mutations get the write handle and touch()', () => {
    const query: ContextOf<'plan.list'> = {} as QueryContext;
    const job: ContextOf<'validation.run'> = {} as QueryContext;
    const mutation: ContextOf<'plan.update'> = {} as MutationContext;
    // @ts-expect-error a query context is not a mutation context
    const wrong: ContextOf<'plan.update'> = {} as QueryContext;
    expect([query, job, mutation, wrong]).toHaveLength(4);
    expect(readHandle).toBeTypeOf('function');
    expect(writeHandle).toBeTypeOf('function');
  });

  it('every job procedure (but jobs.resume) has a body, and nothing else does', () => {
    const jobs = Object.entries(contract)
      .filter(([n, d]) => d.kind === 'job' && n !== 'jobs.resume')
      .map(([n]) => n);
    expect(Object.keys(JOB_DEFINITIONS).sort()).toEqual(jobs.sort());
    const named: JobName = 'validation.run';
    // @ts-expect-error a query is not a job name
    const notAJob: JobName = 'plan.list';
    expect([named, notAJob]).toHaveLength(2);
  });
});
