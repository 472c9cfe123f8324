import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HandlerMap } from '../lib/handler-types';
import { preparedMutation } from '../lib/handler-types';
import { grade } from '../grading/grade';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { constantJudge } from '../grading/judge/judge-check';
import { runRecordOf } from '../grading/run-record';
import { readTraceInput } from '../traces';
import { runUpstreamGrader } from './run-upstream';
import { insertUpstreamGrade, upstreamReport } from './upstream-store';

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/**
 * grading.upstream: the app's grade and upstream's (subprocess) are computed in `prepare`, outside the write
 * transaction (a grader may take seconds); `write` only stores the row.
 */
const gradeUpstream = preparedMutation<'grading.upstream'>()({
  prepare: async (input, ctx) => {
    const { spec } = storedTaskSpec(tasksRepo(ctx.db), input.taskId);
    const trajectory = readTraceInput(input.traceJsonl).trajectory;
    const stub = input.stubJudge;
    const app = grade(spec, runRecordOf(trajectory), stub === undefined ? undefined : constantJudge(stub));
    const root = path.resolve(input.clawEvalRoot);
    const taskDir = path.join(root, 'tasks', input.taskId);
    const graderPy = path.join(taskDir, 'grader.py');
    let graderSha256: string | null = null;
    try {
      graderSha256 = sha256(fs.readFileSync(graderPy));
    } catch {
      // reported by the driver as a failed grader load, naming the file
    }
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-upstream-'));
    const tracePath = path.join(work, 'trace.jsonl');
    let upstream: Awaited<ReturnType<typeof runUpstreamGrader>>;
    try {
      fs.writeFileSync(tracePath, input.traceJsonl);
      upstream = await runUpstreamGrader({
        root,
        taskDir,
        tracePath,
        judge: stub === undefined ? null : { stub_score: stub },
        ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
        ...(input.python ? { python: input.python } : {}),
      });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    return {
      upstream,
      app: { score: app.score, passed: app.passed, incomplete: app.incomplete },
      judge: stub === undefined ? 'none' : `stub:${stub}`,
      graderSha256,
      traceSha256: sha256(input.traceJsonl),
    };
  },
  write: (input, p, ctx) => {
    insertUpstreamGrade(ctx.db, {
      taskId: input.taskId,
      traceSha256: p.traceSha256,
      judge: p.judge,
      graderSha256: p.graderSha256,
      upstream: p.upstream,
      app: p.app,
      at: ctx.now(),
    });
    ctx.touch('upstream_grades');
    return {
      upstream: p.upstream,
      app: p.app,
      agree: p.upstream.ok ? p.upstream.passed === p.app.passed : null,
      judge: p.judge,
    };
  },
});

export const upstreamHandlers = {
  'grading.upstream': gradeUpstream,
  'grading.upstreamReport': (input, ctx) => ({ tasks: upstreamReport(ctx.db, input.taskId) }),
} satisfies Partial<HandlerMap>;
