import { z } from 'zod';
import { defineService } from '../define';
import { dateText, oneOf } from '../record-fields';
import { deepCopy, findBy, notFound, objects, project, pySlice } from '../lib';
import { pyEquals, type PyObject, type PyValue } from '../../py/pyjson';
import { opt, req } from '../request-model';

/** reference/claw-eval.md §6.16. */
const JobRecord = z.looseObject({
  job_id: z.string(),
  name: z.string(),
  cron_expression: z.string(),
  enabled: z.boolean(),
  last_status: oneOf(['success', 'failed', 'stopped', 'running']).nullable(),
  last_run: dateText().nullable(),
  tags: z.array(z.string()),
});

type State = { jobs: PyObject[] };

/** Python `d.get(k, fallback)`. */
const get = (r: PyObject, k: string, fallback: PyValue): PyValue => (k in r ? r[k]! : fallback);

/** List items: the first four keys are read strictly (a record without them is a 500 upstream), the rest with .get. */
function summary(j: PyObject): PyObject {
  const head = project(j, ['job_id', 'name', 'cron_expression', 'enabled']);
  return {
    ...head,
    last_status: get(j, 'last_status', null),
    last_run: get(j, 'last_run', null),
    next_run: get(j, 'next_run', null),
    tags: get(j, 'tags', []),
  };
}

const given = (v: PyValue | undefined): v is string => typeof v === 'string' && v !== '';

/** Python `x in seq` for a list (== per element); anything else here has no members. */
const contains = (seq: PyValue, x: PyValue): boolean => Array.isArray(seq) && seq.some((e) => pyEquals(e, x));

/** Update fields in declaration order; null means "leave unchanged". */
const UPDATABLE = ['enabled', 'cron_expression', 'name', 'action', 'tags'] as const;

export const schedulerService = defineService<State>({
  id: 'scheduler',
  port: 9112,
  fixtureEnv: 'SCHEDULER_FIXTURES',
  defaultFixture: 'tasks/T041zh_scheduled_task_management/fixtures/scheduler/jobs.json',
  probe: { method: 'POST', path: '/scheduler/jobs' },
  actionKeys: ['created_jobs', 'updated_jobs', 'deleted_jobs'],
  recordSchema: JobRecord,
  recordKey: 'job_id',
  upstreamReads: ['job_id', 'name', 'cron_expression', 'enabled'],
  load: (records) => ({ jobs: objects(records) }),
  routes: {
    '/scheduler/jobs': {
      model: { status: opt('str'), enabled: opt('bool'), tag: opt('str') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        let jobs = state.jobs;
        if (given(r.status)) jobs = jobs.filter((j) => pyEquals(get(j, 'last_status', null), r.status!));
        if (r.enabled !== null) jobs = jobs.filter((j) => pyEquals(get(j, 'enabled', null), r.enabled!));
        if (given(r.tag)) jobs = jobs.filter((j) => contains(get(j, 'tags', []), r.tag!));
        const items = jobs.map(summary);
        return { jobs: items, total: items.length };
      },
    },
    '/scheduler/jobs/get': {
      model: { job_id: req('str') },
      handle: (r, { state }) => {
        const j = findBy(state.jobs, 'job_id', r.job_id!);
        return j ? deepCopy(j) : notFound('Job', r.job_id!);
      },
    },
    '/scheduler/jobs/create': {
      model: {
        name: req('str'),
        cron_expression: req('str'),
        action: req('str'),
        enabled: opt('bool', true),
        tags: opt('list[str]'),
        created_by: opt('str'),
      },
      handle: (r, ctx) => {
        // The id comes from the list length, so it can repeat an existing id after a delete.
        const job: PyObject = {
          job_id: `JOB-${String(ctx.state.jobs.length + 1).padStart(3, '0')}`,
          name: r.name!,
          cron_expression: r.cron_expression!,
          action: r.action!,
          enabled: r.enabled!,
          last_run: null,
          next_run: null,
          last_status: null,
          created_by: r.created_by!,
          tags: r.tags ?? [],
          created_at: ctx.timestamp(),
          execution_history: [],
        };
        ctx.state.jobs.push(job);
        ctx.record('created_jobs', deepCopy(job));
        return { status: 'created', job: deepCopy(job) };
      },
    },
    '/scheduler/jobs/update': {
      model: {
        job_id: req('str'),
        enabled: opt('bool'),
        cron_expression: opt('str'),
        name: opt('str'),
        action: opt('str'),
        tags: opt('list[str]'),
      },
      handle: (r, ctx) => {
        const j = findBy(ctx.state.jobs, 'job_id', r.job_id!);
        if (!j) return notFound('Job', r.job_id!);
        for (const k of UPDATABLE) if (r[k] !== null) j[k] = r[k]!;
        ctx.record('updated_jobs', deepCopy(j));
        return { status: 'updated', job: deepCopy(j) };
      },
    },
    '/scheduler/jobs/delete': {
      model: { job_id: req('str') },
      handle: (r, ctx) => {
        const i = ctx.state.jobs.findIndex((j) => j.job_id === r.job_id);
        if (i < 0) return notFound('Job', r.job_id!);
        // The removed object itself, shared by the response and deleted_jobs.
        const [job] = ctx.state.jobs.splice(i, 1) as [PyObject];
        ctx.record('deleted_jobs', job);
        return { status: 'deleted', job };
      },
    },
    '/scheduler/jobs/history': {
      model: { job_id: req('str'), limit: opt('int', 10) },
      handle: (r, { state }) => {
        const j = findBy(state.jobs, 'job_id', r.job_id!);
        if (!j) return notFound('Job', r.job_id!);
        const history = get(j, 'execution_history', []);
        // A non-list history (e.g. null) fails upstream's slice/len: a 500.
        if (!Array.isArray(history)) throw new TypeError('execution_history is not a list');
        const all = history;
        // Unlike every other list envelope, `total` is the full history length, not the returned count.
        return { job_id: r.job_id!, history: pySlice(all, r.limit as number), total: all.length };
      },
    },
  },
});
