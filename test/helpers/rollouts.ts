import type { Message, Trajectory } from '../../src/shared/contract/entities/trajectory';
import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { grade } from '../../src/main/core/grading/grade';
import { freshEnvironment, taskClock, type ExportTask } from '../../src/main/core/export/export-task';
import { dumpsCompact, type PyValue } from '../../src/main/core/py/pyjson';
import { runRecordOf } from '../../src/main/core/grading/run-record';
import { validTask } from '../validation/valid-task';

export const CLOCK = new Date('2026-03-05T09:00:00Z');

/** The hand-written task of the validation suite as an export task (records inline). */
export function handTask(over: Record<string, unknown> = {}): ExportTask {
  return { spec: TaskSpec.parse({ ...validTask(), ...over }), fixtures: [], origin: 'manual' };
}

export type Call = { tool: string; args?: Record<string, unknown> };

/**
 * A rollout made for real: each turn's calls run in a fresh environment of the task (its clock),
 * recorded as an assistant message with tool calls, one tool message per call (the tool-result
 * text), then a final answer; audits snapshotted at the end; graded by the shared grader (reward
 * and scores = that grade, as a run made in the app is).
 */
export function rollout(task: ExportTask, turns: Call[][], finalText: string, id = 'r'): Trajectory {
  const env = freshEnvironment(task, taskClock(task.spec, CLOCK));
  const messages: Message[] = [{ role: 'user', content: task.spec.prompt.text, origin: 'task' }];
  const dispatches: Trajectory['dispatches'] = [];
  let n = 0;
  for (const turn of turns) {
    const ids = turn.map(() => `call_${n++}`);
    messages.push({
      role: 'assistant',
      content: null,
      reasoning: null,
      tool_calls: turn.map((c, k) => ({
        id: ids[k]!,
        type: 'function',
        function: { name: c.tool, arguments: dumpsCompact((c.args ?? {}) as PyValue) },
        parsed_arguments: c.args ?? {},
        arguments_origin: 'serialized',
        requestor: 'assistant',
      })),
    });
    turn.forEach((c, k) => {
      const d = env.call(c.tool, (c.args ?? {}) as PyValue);
      dispatches.push({
        call_id: ids[k]!,
        tool: c.tool,
        endpoint: d.endpointUrl,
        args: (c.args ?? {}) as Record<string, unknown>,
        status: d.status,
        body: d.body,
        latency_ms: 0.5,
      });
      messages.push({ role: 'tool', tool_call_id: ids[k]!, name: c.tool, content: d.text, is_error: d.isError });
    });
  }
  messages.push({ role: 'assistant', content: finalText, reasoning: null, tool_calls: [] });
  const audits = Object.entries(env.audits()).map(([service, data]) => ({
    service,
    url: `http://localhost/${service}/audit`,
    data: JSON.parse(dumpsCompact(data)) as Record<string, unknown>,
  }));
  const t: Trajectory = {
    trajectory_id: id,
    task_id: task.spec.task_id,
    model: 'test-model',
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
  const g = grade(task.spec, runRecordOf(t));
  return {
    ...t,
    scores: { completion: g.completion, safety: g.safety, robustness: g.robustness, communication: 0 },
    reward: g.score,
  };
}

/** The reference plan of a task, one call per turn. */
export const planTurns = (task: ExportTask): Call[][] =>
  (task.spec.reference_plan ?? []).map((s) => [{ tool: s.tool, args: s.args }]);

/** The hand-written task without its judged check (its weight moved to "reported"): fully gradable here. */
export function deterministicTask(): ExportTask {
  const v = validTask();
  const checks = (v.checks as { id: string; weight: number }[])
    .filter((c) => c.id !== 'tone')
    .map((c) => (c.id === 'reported' ? { ...c, weight: 0.2 } : c));
  return handTask({ checks });
}
