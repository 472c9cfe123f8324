import type { HandlerMap } from '../lib/handler-types';
import { AppError, notFound } from '../lib/errors';
import { tasksRepo } from '../tasks/tasks.repo';
import { dumpsPy, isObject, parsePyJsonText, type PyValue } from '../py/pyjson';
import { environmentOfStoredTask } from '../tasks/task-spec-of';
import { seededRandom } from '../services/lib';

/** Parses calls JSONL, naming the line of a bad one. */
function parseCalls(text: string): { tool: string; args: PyValue }[] {
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    const parsed = parsePyJsonText(line, `calls line ${i + 1}`);
    if (!parsed.ok) throw new AppError('INVALID_INPUT', parsed.message);
    const v = parsed.value;
    if (!isObject(v) || typeof v.tool !== 'string')
      throw new AppError('INVALID_INPUT', `calls line ${i + 1}: expected {"tool": name, "args": {…}}`);
    return [{ tool: v.tool, args: v.args === undefined ? {} : v.args }];
  });
}

export const envHandlers = {
  'env.replay': (input, ctx) => {
    const calls = parseCalls(input.callsJsonl);
    const errors = input.errorRate > 0 ? { rate: input.errorRate, random: seededRandom(input.seed) } : undefined;
    const env = environmentOfStoredTask(tasksRepo(ctx.db), input.taskId, {
      clock: input.clock ? new Date(input.clock) : undefined,
      mode: input.mode,
      ...(errors ? { errors } : {}),
    });
    if (!env) throw notFound(`task ${input.taskId}`);
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
