import path from 'node:path';
import { AppError } from '../lib/errors';
import { preparedMutation, type HandlerMap } from '../lib/handler-types';
import { checkUpstream } from './check-upstream';
import {
  importedTaskIds,
  lastUpstreamCheck,
  setUpstreamPaths,
  storeUpstreamCheck,
  upstreamPaths,
  upstreamSettings,
} from './upstream-settings';
import { upstreamAgreement } from './upstream-store';

/** The check runs Python (seconds at worst) before the write transaction; the write only keeps its answer. */
const check = preparedMutation<'upstream.check'>()({
  prepare: (_input, ctx) => checkUpstream(upstreamPaths(ctx.db), importedTaskIds(ctx.db), ctx.now()),
  write: (_input, c, ctx) => {
    storeUpstreamCheck(ctx.db, c);
    ctx.touch('workspace_meta');
    return c;
  },
});

const setSettings = preparedMutation<'upstream.setSettings'>()({
  prepare: (input, ctx) =>
    checkUpstream(
      { root: input.root === null ? null : path.resolve(input.root), python: input.python ?? 'python3' },
      importedTaskIds(ctx.db),
      ctx.now(),
    ),
  write: (_input, c, ctx) => {
    setUpstreamPaths(ctx.db, c.root, c.python === 'python3' ? null : c.python);
    storeUpstreamCheck(ctx.db, c);
    ctx.touch('workspace_meta');
    return upstreamSettings(ctx.db);
  },
});

export const upstreamAppHandlers = {
  'upstream.settings': (_input, ctx) => upstreamSettings(ctx.db),
  'upstream.setSettings': setSettings,
  'upstream.check': check,
  'upstream.grade': (input, ctx) => {
    const { root, python } = upstreamPaths(ctx.db);
    if (root === null)
      throw new AppError('INVALID_INPUT', 'no Claw-Eval checkout is set: choose it in Settings → Upstream grader', [
        { path: ['root'], message: 'not set' },
      ]);
    const last = lastUpstreamCheck(ctx.db);
    if (last && !last.usable)
      throw new AppError(
        'INVALID_INPUT',
        `the upstream grader is not usable: ${last.missing}. Fix it in Settings → Upstream grader and Check again`,
        [{ path: ['root'], message: last.missing ?? 'not usable' }],
      );
    const timeoutMs = input.timeoutSeconds * 1000;
    const ids = [...new Set(input.ids)];
    const stubJudge = input.stubJudge ?? null;
    return { jobId: ctx.jobs.start('upstream.grade', { ids, root, python, timeoutMs, stubJudge }) };
  },
  'upstream.agreement': (input, ctx) => ({ tasks: upstreamAgreement(ctx.db, input.taskId) }),
} satisfies Partial<HandlerMap>;
