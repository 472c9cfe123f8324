import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../src/main/core';
import { dumpsCompact, type PyValue } from '../../src/main/core/py/pyjson';
import { pyIsoTimestamp } from '../../src/main/core/services/define';
import { deriveTaskSpec } from '../../src/main/core/tasks/claw-eval/derive-checks';
import { readClawTask, type ReadTask } from '../../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../../src/main/core/tasks/claw-eval/task-files';
import { environmentForSpec } from '../../src/main/core/tasks/task-spec-of';
import { writeTrace } from '../../src/main/core/traces';
import { runUpstreamGrader, type UpstreamGrade } from '../../src/main/core/upstream-grader/run-upstream';
import type { GradeResult } from '../../src/shared/contract/entities/checks';
import type { Message, Trajectory } from '../../src/shared/contract/entities/trajectory';
import { ok } from '../../test/helpers/call';
import { chat, startScriptedOpenAI } from '../../test/helpers/scripted-openai';
import { readOverrides, type SolutionOverride } from './overrides';
import { isWriteTool, solutionCalls, solutionFinal, type Call } from './solution';

/** The tasks whose services the app re-hosts: T001–T044 and T105–T164 (zh and en variants). */
export const SERVICE_TASK = /^T(0[0-3]\d|04[0-4]|10[5-9]|1[1-5]\d|16[0-4])(zh)?_/;

/** The runs' clock (gmail and calendar place fixture dates relative to it). */
const CLOCK = new Date('2026-03-26T09:00:00Z');

export type Side = { score: number; passed: boolean; robustness: number; incomplete?: boolean };
export type AgreementRow = {
  taskId: string;
  /**
   * good: a good solution; violation: the same plus a prohibited call (both sides must score 0); answer-only (with
   * `answerOnly`): the good final answer without any tool call, which only upstream's per-task Python can fail;
   * with-errors: the good solution with the derived calls the services refused kept in (errors, then recoveries).
   */
  variant: 'good' | 'violation' | 'answer-only' | 'with-errors';
  app: Side | { error: string };
  upstream: UpstreamGrade;
  agree: boolean | null;
  /** Why they differ (the app's failing checks, or upstream's dimensions), for the report. */
  reason: string;
  /** The app's checks not fully met (and violations), whatever the agreement: where its reading may be off. */
  appNotMet: string;
  /** The stored trajectory exported (trajectories.exportTrace) and imported again grades the same; null on error. */
  reimportSame: boolean | null;
  /** Derived calls the mock services refused (left out of the script). */
  dropped: string[];
};

export type AgreementOptions = {
  root: string;
  /** Task ids (folder names); default every service-backed task of the checkout. */
  taskIds?: string[];
  overrides?: Map<string, SolutionOverride>;
  python?: string;
  workerEntry?: string;
  /** Also grade the good answer with no tool calls (measures what task.yaml cannot express). */
  answerOnly?: boolean;
  log?: (line: string) => void;
};

/** The checkout's service-backed task folders, in order. */
export function serviceTaskIds(root: string): string[] {
  return fs
    .readdirSync(path.join(root, 'tasks'))
    .filter((d) => SERVICE_TASK.test(d) && fs.existsSync(path.join(root, 'tasks', d, 'task.yaml')))
    .sort();
}

/** Runs `calls` against the task's own in-process mock services: a trajectory as a run would record it. */
function runScript(task: ReadTask, calls: Call[], final: string): Trajectory {
  const { spec } = deriveTaskSpec(task.spec, task.fixtures);
  const env = environmentForSpec(spec, task.fixtures, () => CLOCK);
  let tick = 0;
  const meta = () => ({ timestamp: pyIsoTimestamp(new Date(CLOCK.getTime() + 1000 * tick++)) });
  const messages: Message[] = [{ role: 'user', content: spec.prompt.text, origin: 'task', meta: meta() }];
  const dispatches: Trajectory['dispatches'] = [];
  calls.forEach((c, n) => {
    const id = `call_${n}`;
    messages.push({
      role: 'assistant',
      content: null,
      reasoning: null,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name: c.tool, arguments: dumpsCompact(c.args as PyValue) },
          parsed_arguments: c.args,
          arguments_origin: 'serialized',
          requestor: 'assistant',
        },
      ],
      meta: meta(),
    });
    const d = env.call(c.tool, c.args as PyValue);
    dispatches.push({
      call_id: id,
      tool: c.tool,
      endpoint: d.endpointUrl,
      args: c.args,
      status: d.status,
      body: d.body,
      latency_ms: 1,
      meta: meta(),
    });
    messages.push({ role: 'tool', tool_call_id: id, name: c.tool, content: d.text, is_error: d.isError, meta: meta() });
  });
  messages.push({ role: 'assistant', content: final, reasoning: null, tool_calls: [], meta: meta() });
  const audits = Object.entries(env.audits()).map(([service, data]) => ({
    service,
    url: `http://localhost/${service}/audit`,
    data: JSON.parse(dumpsCompact(data)) as Record<string, unknown>,
    meta: meta(),
  }));
  return {
    trajectory_id: `agreement/${task.taskId}`,
    task_id: task.taskId,
    model: 'good-solution-script',
    source: { format: 'studio', file: null },
    trace: null,
    tools: [],
    messages,
    dispatches,
    audits,
    media: [],
    compactions: [],
    end: null,
    gradings: [],
    scores: null,
    reward: null,
    termination: 'agent_stop',
    valid: true,
    invalid_reason: null,
    metadata: {},
  };
}

/** The script without the derived calls the services refuse (a good solution makes no failing call). */
function workingCalls(task: ReadTask, calls: Call[], handWritten: boolean): { calls: Call[]; dropped: string[] } {
  if (handWritten) return { calls, dropped: [] };
  const probe = runScript(task, calls, '');
  const dropped: string[] = [];
  const kept = calls.filter((c, i) => {
    const bad = probe.dispatches[i]!.status >= 400;
    if (bad) dropped.push(`${c.tool}(${JSON.stringify(c.args)}) → ${probe.dispatches[i]!.status}`);
    return !bad;
  });
  return { calls: kept, dropped };
}

/** The call that breaks a tool_not_called rule: the prohibited tool with its required arguments filled in. */
function violationCall(task: ReadTask, o: SolutionOverride | undefined): Call | undefined {
  if (o?.violation) return { tool: o.violation.tool, args: o.violation.args ?? {} };
  const rule = task.spec.safety_checks.find((s) => s.type === 'tool_not_called' && s.tool_name);
  if (!rule) return undefined;
  const t = task.spec.tools.find((x) => x.name === rule.tool_name);
  const req = ((t?.input_schema.required ?? []) as string[]).filter(Boolean);
  const props = (t?.input_schema.properties ?? {}) as Record<string, { type?: string }>;
  const args: Record<string, unknown> = {};
  for (const p of req) args[p] = props[p]?.type === 'integer' || props[p]?.type === 'number' ? 1 : 'x';
  return { tool: rule.tool_name!, args };
}

function appReason(g: GradeResult): string {
  const parts = g.checks
    .filter((c) => c.score === null || c.score < 1)
    .map((c) => `${c.id} ${c.score === null ? 'pending' : c.score} (${c.message})`);
  if (g.safetyViolations.length) parts.push(`violations: ${g.safetyViolations.map((v) => v.rule).join(', ')}`);
  if (g.safetyNotEvaluated?.length) parts.push(`safety not evaluated: ${g.safetyNotEvaluated.length}`);
  if (g.robustness < 1) parts.push(`robustness ${g.robustness}`);
  return parts.join('; ');
}

/**
 * The agreement run (issue 19's done criterion): per task a good-solution script run against the app's own mock
 * services, written as a Claw-Eval trace by the app's trace writer, imported through trajectories.importTrace,
 * graded by the app with a stub judge endpoint answering 1.0 (grading.regrade), and graded by the task's own
 * grader.py with stub_score 1.0; and, for tasks with a tool_not_called rule, the same with the prohibited call
 * appended (both must score 0).
 */
export async function runAgreement(o: AgreementOptions): Promise<AgreementRow[]> {
  const log = o.log ?? (() => undefined);
  const overrides = o.overrides ?? readOverrides();
  const ids = o.taskIds ?? serviceTaskIds(o.root);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-agreement-'));
  const core: Core = createCore({
    workspacePath: path.join(work, 'agreement.coworkenv.db'),
    clock: () => CLOCK,
    ...(o.workerEntry ? { workerEntry: o.workerEntry } : {}),
  });
  const judge = await startScriptedOpenAI({
    script: () => chat('```json\n{"score": 1.0, "reasoning": "stub judge: a perfect answer"}\n```'),
  });
  const rows: AgreementRow[] = [];
  try {
    await ok(core, 'endpoints.add', { name: 'stub-judge', base_url: judge.baseUrl, model: 'stub', key_source: 'none' });
    await ok(core, 'grading.setJudge', { endpoint: 'stub-judge' });
    const dirs = ids.map((id) => path.join(o.root, 'tasks', id));
    const imported = await ok(core, 'tasks.import', { paths: dirs });
    for (const e of imported.outcomes.filter((x) => x.status === 'error')) log(`import refused: ${JSON.stringify(e)}`);
    for (const id of ids) {
      const dir = path.join(o.root, 'tasks', id);
      const task = readClawTask(locateTasks(dir)[0]!);
      const ov = overrides.get(id);
      if (ov?.unsolvable) log(`${id}: no good solution (${ov.unsolvable}); violation variant only`);
      const { calls, dropped } = workingCalls(task, solutionCalls(task, ov), ov?.calls !== undefined);
      const final = solutionFinal(task, ov);
      const variants: [AgreementRow['variant'], Call[]][] = ov?.unsolvable ? [] : [['good', calls]];
      const bad = violationCall(task, ov);
      if (bad) variants.push(['violation', [...calls, bad]]);
      if (o.answerOnly && !ov?.unsolvable) variants.push(['answer-only', []]);
      if (dropped.length && !ov?.unsolvable) variants.push(['with-errors', solutionCalls(task, ov)]);
      for (const [variant, script] of variants) {
        const trace = writeTrace(runScript(task, script, final), { now: () => CLOCK });
        const tracePath = path.join(work, `${id}.${variant}.jsonl`);
        fs.writeFileSync(tracePath, trace);
        const app = await appGrade(core, id, trace, variant);
        const upstream = await runUpstreamGrader({
          root: o.root,
          taskDir: dir,
          tracePath,
          judge: { stub_score: 1 },
          ...(o.python ? { python: o.python } : {}),
        });
        const appSide = 'error' in app ? app : app.side;
        const agree =
          'error' in app || !upstream.ok
            ? null
            : variant === 'violation'
              ? app.side.score === 0 && upstream.score === 0
              : app.side.passed === upstream.passed;
        const reason =
          agree === true
            ? ''
            : [
                'error' in app ? `app: ${app.error}` : `app: ${appReason(app.grade)}`,
                upstream.ok
                  ? `upstream: completion ${upstream.completion}, safety ${upstream.safety}, ` +
                    `robustness ${upstream.robustness}`
                  : `upstream ${upstream.stage}: ${upstream.error}`,
              ].join(' | ');
        const appNotMet = 'error' in app ? app.error : appReason(app.grade);
        const reimportSame = 'error' in app ? null : await reimportGrades(core, id, app.id, app.grade);
        rows.push({ taskId: id, variant, app: appSide, upstream, agree, reason, appNotMet, reimportSame, dropped });
        log(rowLine(rows.at(-1)!));
      }
    }
  } finally {
    await core.close();
    await judge.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

/** Import the trace as a user would, re-grade it with the judge endpoint, read the stored grade back. */
async function appGrade(
  core: Core,
  taskId: string,
  traceJsonl: string,
  variant: string,
): Promise<{ side: Side; grade: GradeResult; id: number } | { error: string }> {
  const r = await core.dispatch('trajectories.importTrace', { traceJsonl, taskId, collection: `agreement-${variant}` });
  if (!r.ok) return { error: `import: ${r.error.message}` };
  const id = (r.data as { id: number }).id;
  const rg = await core.dispatch('grading.regrade', { taskId });
  if (!rg.ok) return { error: `regrade: ${rg.error.message}` };
  const got = await ok(core, 'trajectories.get', { id });
  if (!got.grade) return { error: 'not graded' };
  const g = got.grade;
  return {
    side: { score: g.score, passed: g.passed, robustness: g.robustness, incomplete: g.incomplete },
    grade: g,
    id,
  };
}

/** Export the stored trajectory as a trace, import it into another collection, re-grade: the same grade? */
async function reimportGrades(core: Core, taskId: string, id: number, before: GradeResult): Promise<boolean> {
  const { traceJsonl } = await ok(core, 'trajectories.exportTrace', { id });
  const again = await ok(core, 'trajectories.importTrace', { traceJsonl, taskId, collection: 'agreement-reimport' });
  await ok(core, 'grading.regrade', { taskId });
  const after = (await ok(core, 'trajectories.get', { id: again.id })).grade;
  return (
    !!after &&
    after.score === before.score &&
    after.passed === before.passed &&
    JSON.stringify(after.checks.map((c) => c.score)) === JSON.stringify(before.checks.map((c) => c.score))
  );
}

export const sideText = (s: Side | { error: string }): string =>
  'error' in s ? `error` : `${s.score.toFixed(4)} ${s.passed ? 'pass' : 'fail'}${s.incomplete ? ' (incomplete)' : ''}`;

export const upstreamText = (u: UpstreamGrade): string =>
  u.ok ? `${u.score.toFixed(4)} ${u.passed ? 'pass' : 'fail'}` : `error (${u.stage})`;

export function rowLine(r: AgreementRow): string {
  const agree = r.agree === null ? 'n/a' : r.agree ? 'yes' : 'NO';
  return (
    `${r.taskId.padEnd(40)} ${r.variant.padEnd(11)} app ${sideText(r.app).padEnd(24)} ` +
    `upstream ${upstreamText(r.upstream).padEnd(12)} agree ${agree}`
  );
}

export { isWriteTool };
