import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { schedulerService } from '../../src/main/core/services/scheduler/scheduler.service';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00Z');
const TS = '2026-03-05T09:00:00+00:00';
const HISTORY = [1, 2, 3, 4].map((d) => ({
  run_time: `2026-03-0${d}T02:00:00+08:00`,
  status: d === 2 ? 'failed' : 'success',
  duration_seconds: 300 + d,
}));
const FIXTURE: PyValue[] = [
  {
    job_id: 'JOB-001',
    name: 'daily_backup',
    cron_expression: '0 2 * * *',
    action: 'backup',
    enabled: true,
    last_run: '2026-03-01T02:00:00+08:00',
    next_run: '2026-03-02T02:00:00+08:00',
    last_status: 'success',
    created_by: 'admin',
    tags: ['backup', 'database'],
    execution_history: HISTORY,
  },
  {
    job_id: 'JOB-002',
    name: 'weekly_report',
    cron_expression: '0 9 * * 1',
    enabled: true,
    last_status: 'failed',
    last_run: '2026-02-24T09:00:00+08:00',
    tags: ['report'],
  },
  {
    job_id: 'JOB-003',
    name: 'log_cleanup',
    cron_expression: '0 3 * * *',
    enabled: false,
    last_status: 'success',
    last_run: '2026-02-15T03:00:00+08:00',
    next_run: null,
    tags: ['logs'],
  },
];
const make = () => new ServiceInstance(schedulerService, FIXTURE, () => NOW);
type Svc = ReturnType<typeof make>;
const post = (s: Svc, p: string, body?: PyValue) => s.request('POST', p, body);
const json = (s: Svc, p: string, body?: PyValue) => post(s, p, body).json as PyObject;
const calls = (s: Svc) => s.audit().calls as PyObject[];
const ids = (v: PyValue | undefined) => (v as PyObject[]).map((j) => j.job_id);
const list = (s: Svc, body: PyValue) => ids(json(s, '/scheduler/jobs', body).jobs);

describe('scheduler service', () => {
  it('lists summaries, filling missing last_status/last_run/next_run with null and tags with []', () => {
    const s = new ServiceInstance(
      schedulerService,
      [{ job_id: 'JOB-9', name: 'bare', cron_expression: '* * * * *', enabled: false, extra: 1 }],
      () => NOW,
    );
    expect(dumpsPy(json(s, '/scheduler/jobs', {}))).toBe(
      '{"jobs": [{"job_id": "JOB-9", "name": "bare", "cron_expression": "* * * * *", "enabled": false, ' +
        '"last_status": null, "last_run": null, "next_run": null, "tags": []}], "total": 1}',
    );
    // A record without a projected key that is read strictly: upstream's KeyError, a plain-text 500, not logged.
    const broken = new ServiceInstance(schedulerService, [{ job_id: 'JOB-9', name: 'x', enabled: true }], () => NOW);
    expect(post(broken, '/scheduler/jobs', {})).toEqual({ status: 500, text: 'Internal Server Error' });
    expect(calls(broken)).toEqual([]);
  });

  it('filters by last_status (exact), enabled (bool, lax) and tag membership, combined', () => {
    const s = make();
    expect(list(s, { status: 'success' })).toEqual(['JOB-001', 'JOB-003']);
    expect(list(s, { status: 'succ' })).toEqual([]);
    expect(list(s, { status: '' })).toEqual(['JOB-001', 'JOB-002', 'JOB-003']);
    expect(list(s, { enabled: false })).toEqual(['JOB-003']);
    expect(list(s, { enabled: 'true' })).toEqual(['JOB-001', 'JOB-002']);
    expect(list(s, { tag: 'backup' })).toEqual(['JOB-001']);
    expect(list(s, { tag: 'back' })).toEqual([]);
    expect(list(s, { status: 'success', enabled: true, tag: 'database' })).toEqual(['JOB-001']);
    expect(calls(s)[4]!.request_body).toEqual({ status: null, enabled: true, tag: null });
    const bad = post(s, '/scheduler/jobs', { enabled: 'sometimes' });
    expect(bad).toEqual({
      status: 422,
      json: {
        detail: [
          {
            type: 'bool_parsing',
            loc: ['body', 'enabled'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'sometimes',
          },
        ],
      },
    });
  });

  it('logs the body-less health probe with every filter null', () => {
    const env = new Environment({ now: () => NOW, services: [{ id: 'scheduler', records: FIXTURE }], tools: [] });
    const audit = env.audits().scheduler!;
    expect(Object.keys(audit)).toEqual(['calls', 'created_jobs', 'updated_jobs', 'deleted_jobs']);
    expect((audit.calls as PyObject[]).map((c) => [c.endpoint, c.request_body])).toEqual([
      ['/scheduler/jobs', { status: null, enabled: null, tag: null }],
    ]);
  });

  it('gets a deep copy of the full record, or a logged not-found', () => {
    const s = make();
    const j = json(s, '/scheduler/jobs/get', { job_id: 'JOB-001' });
    expect(j).toEqual(FIXTURE[0]);
    (j.tags as string[]).push('x');
    expect(json(s, '/scheduler/jobs/get', { job_id: 'JOB-001' }).tags).toEqual(['backup', 'database']);
    expect(json(s, '/scheduler/jobs/get', { job_id: 'JOB-404' })).toEqual({ error: 'Job JOB-404 not found' });
    expect(post(s, '/scheduler/jobs/get', { job_id: ['JOB-001'] }).status).toBe(422);
    expect(calls(s)).toHaveLength(3);
  });

  it('creates with defaults in upstream key order and an id from the list length', () => {
    const s = make();
    const r = json(s, '/scheduler/jobs/create', { name: 'sync', cron_expression: '*/5 * * * *', action: 'go' });
    expect(dumpsPy(r)).toBe(
      `{"status": "created", "job": {"job_id": "JOB-004", "name": "sync", "cron_expression": "*/5 * * * *", ` +
        `"action": "go", "enabled": true, "last_run": null, "next_run": null, "last_status": null, "created_by": ` +
        `null, "tags": [], "created_at": "${TS}", "execution_history": []}}`,
    );
    expect(calls(s)[0]!.request_body).toEqual({
      name: 'sync',
      cron_expression: '*/5 * * * *',
      action: 'go',
      enabled: true,
      tags: null,
      created_by: null,
    });
    expect(s.audit().created_jobs).toEqual([r.job]);
    expect(list(s, {})).toEqual(['JOB-001', 'JOB-002', 'JOB-003', 'JOB-004']);
    const missing = post(s, '/scheduler/jobs/create', { name: 'x', cron_expression: 'y' });
    expect(missing.status).toBe(422);
    expect((missing.json as { detail: PyObject[] }).detail[0]!.loc).toEqual(['body', 'action']);
  });

  it('keeps create responses and created_jobs as copies: a later update does not show in them', () => {
    const s = make();
    json(s, '/scheduler/jobs/create', {
      name: 'n',
      cron_expression: 'c',
      action: 'a',
      tags: ['t'],
      created_by: 'me',
      enabled: 0,
    });
    json(s, '/scheduler/jobs/update', { job_id: 'JOB-004', name: 'renamed', enabled: true });
    expect((s.audit().created_jobs as PyObject[])[0]!.name).toBe('n');
    expect(((calls(s)[0]!.response_body as PyObject).job as PyObject).enabled).toBe(false);
    expect(json(s, '/scheduler/jobs/get', { job_id: 'JOB-004' })).toMatchObject({
      name: 'renamed',
      enabled: true,
      tags: ['t'],
      created_by: 'me',
    });
  });

  it('reuses an id after a delete, and get then finds the first of the duplicates', () => {
    const s = make();
    json(s, '/scheduler/jobs/create', { name: 'first', cron_expression: 'c', action: 'a' });
    json(s, '/scheduler/jobs/delete', { job_id: 'JOB-002' });
    const again = json(s, '/scheduler/jobs/create', { name: 'second', cron_expression: 'c', action: 'a' });
    expect((again.job as PyObject).job_id).toBe('JOB-004');
    expect(json(s, '/scheduler/jobs/get', { job_id: 'JOB-004' }).name).toBe('first');
  });

  it('updates only non-null fields in place and logs a copy in updated_jobs', () => {
    const s = make();
    const r = json(s, '/scheduler/jobs/update', {
      job_id: 'JOB-002',
      enabled: 'false',
      tags: ['weekly'],
      name: null,
      action: 'new',
    });
    expect(r.status).toBe('updated');
    expect(r.job).toEqual({
      job_id: 'JOB-002',
      name: 'weekly_report',
      cron_expression: '0 9 * * 1',
      enabled: false,
      last_status: 'failed',
      last_run: '2026-02-24T09:00:00+08:00',
      tags: ['weekly'],
      action: 'new',
    });
    expect(calls(s)[0]!.request_body).toEqual({
      job_id: 'JOB-002',
      enabled: false,
      cron_expression: null,
      name: null,
      action: 'new',
      tags: ['weekly'],
    });
    expect(s.audit().updated_jobs).toEqual([r.job]);
    expect(list(s, { enabled: false })).toEqual(['JOB-002', 'JOB-003']);
    expect(json(s, '/scheduler/jobs/update', { job_id: 'JOB-404', enabled: true })).toEqual({
      error: 'Job JOB-404 not found',
    });
    expect(s.audit().updated_jobs).toHaveLength(1);
  });

  it('deletes, returning the removed object itself, and not-found afterwards', () => {
    const s = make();
    const r = json(s, '/scheduler/jobs/delete', { job_id: 'JOB-003' });
    expect(r).toEqual({ status: 'deleted', job: FIXTURE[2] });
    expect((s.audit().deleted_jobs as PyObject[])[0]).toBe(r.job);
    expect(json(s, '/scheduler/jobs/get', { job_id: 'JOB-003' })).toEqual({ error: 'Job JOB-003 not found' });
    expect(json(s, '/scheduler/jobs/delete', { job_id: 'JOB-003' })).toEqual({ error: 'Job JOB-003 not found' });
    expect(s.audit().deleted_jobs).toHaveLength(1);
  });

  it('returns history[:limit] with the full history length as total', () => {
    const s = make();
    expect(json(s, '/scheduler/jobs/history', { job_id: 'JOB-001', limit: 2 })).toEqual({
      job_id: 'JOB-001',
      history: HISTORY.slice(0, 2),
      total: 4,
    });
    expect((json(s, '/scheduler/jobs/history', { job_id: 'JOB-001', limit: '-1' }).history as PyValue[]).length).toBe(
      3,
    );
    expect(json(s, '/scheduler/jobs/history', { job_id: 'JOB-001', limit: 0 })).toEqual({
      job_id: 'JOB-001',
      history: [],
      total: 4,
    });
    expect(json(s, '/scheduler/jobs/history', { job_id: 'JOB-002' })).toEqual({
      job_id: 'JOB-002',
      history: [],
      total: 0,
    });
    expect(calls(s)[3]!.request_body).toEqual({ job_id: 'JOB-002', limit: 10 });
    expect(json(s, '/scheduler/jobs/history', { job_id: 'JOB-404' })).toEqual({ error: 'Job JOB-404 not found' });
    expect(post(s, '/scheduler/jobs/history', { job_id: 'JOB-001', limit: 'twenty' }).status).toBe(422);
  });

  it('reset restores the fixture and clears calls and every action list', () => {
    const s = make();
    json(s, '/scheduler/jobs/create', { name: 'n', cron_expression: 'c', action: 'a' });
    json(s, '/scheduler/jobs/update', { job_id: 'JOB-001', enabled: false });
    json(s, '/scheduler/jobs/delete', { job_id: 'JOB-002' });
    post(s, '/scheduler/reset');
    expect(s.audit()).toEqual({ calls: [], created_jobs: [], updated_jobs: [], deleted_jobs: [] });
    expect(list(s, {})).toEqual(['JOB-001', 'JOB-002', 'JOB-003']);
    expect(json(s, '/scheduler/jobs/get', { job_id: 'JOB-001' }).enabled).toBe(true);
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it('the record schema refuses a non-boolean enabled', () => {
    expect(
      schedulerService.recordSchema.safeParse({
        job_id: 'J',
        name: 'n',
        cron_expression: 'c',
        enabled: 'yes',
        last_status: null,
        last_run: null,
        tags: [],
      }).success,
    ).toBe(false);
  });
});
