import { parseJsonText } from '../lib/json-input';
import type { HandlerMap } from '../lib/handler-types';
import { AppError, notFound } from '../lib/errors';
import { tasksRepo } from '../tasks/tasks.repo';
import { dumpsPy, isObject, parsePyJson, type PyValue } from '../services/pyjson';
import { environmentForTask } from '../services/task-environment';
import { seededRandom } from '../services/lib';

/** Parses calls JSONL, naming the line of a bad one. */
function parseCalls(text: string): { tool: string; args: PyValue }[] {
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    const check = parseJsonText(line, `calls line ${i + 1}`);
    if (!check.ok) throw new AppError('INVALID_INPUT', check.message);
    const v = parsePyJson(line);
    if (!isObject(v) || typeof v.tool !== 'string')
      throw new AppError('INVALID_INPUT', `calls line ${i + 1}: expected {"tool": name, "args": {…}}`);
    return [{ tool: v.tool, args: v.args === undefined ? {} : v.args }];
  });
}

export const envHandlers = {
  'env.replay': (input, ctx) => {
    const repo = tasksRepo(ctx.db);
    const t = repo.get(input.taskId);
    if (!t) throw notFound(`task ${input.taskId}`);
    const calls = parseCalls(input.callsJsonl);
    const pinned = input.clock ? new Date(input.clock) : undefined;
    const errors = input.errorRate > 0 ? { rate: input.errorRate, random: seededRandom(input.seed) } : undefined;
    const env = environmentForTask(
      { spec: t.spec, fixtures: repo.fixtures(input.taskId) },
      () => pinned ?? new Date(),
      { mode: input.mode, ...(errors ? { errors } : {}) },
    );
    const dispatches = calls.map((c) => {
      const d = env.call(c.tool, c.args);
      return {
        tool: d.tool,
        status: d.status,
        isError: d.isError,
        text: d.text,
        body: dumpsPy(d.body),
        latencyMs: d.latencyMs,
        ...(d.delayMs ? { delayMs: d.delayMs } : {}),
        ...(d.repaired ? { repaired: d.repaired } : {}),
      };
    });
    const audits = Object.fromEntries(Object.entries(env.audits()).map(([k, v]) => [k, dumpsPy(v)]));
    return { mode: input.mode, dispatches, audits };
  },
} satisfies Partial<HandlerMap>;
