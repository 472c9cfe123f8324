import { Conversation, flattenContent } from './conversation';
import { trajectoryOf, type FormatContext, type Normalized } from './normalized';
import { taskSourceOf } from '../task-key';
import { arr, isObj, obj, optStr, RecordError, rewardOf, rewardSuccess, str, taskIdOf, trialOf } from './record-error';

/** "# Airline Agent Policy" → airline: τ-bench v1 files do not name their domain elsewhere. */
export function domainOfPolicy(text: string | null | undefined): string {
  const m = /^\s*#\s*([A-Za-z]+)\s+agent\s+policy/i.exec(text ?? '');
  return m ? m[1]!.toLowerCase() : 'unknown';
}

/**
 * A τ-bench (v1) historical record (formats.md §2.1): {task_id, trial, reward, info, traj}. Tool
 * results are paired by position within each assistant turn (ids repeat across turns), tool errors
 * are the `Error: ` strings, `think` and `calculate` stay ordinary tools.
 */
export function readTauBench(value: unknown, ctx: FormatContext): Normalized {
  const r = obj(value, '');
  const taskId = taskIdOf(r.task_id, 'task_id');
  const trial = trialOf(r.trial, 'trial');
  const reward = rewardOf(r.reward, 'reward', ctx);
  const info = r.info === undefined || r.info === null ? null : obj(r.info, 'info');
  const conv = new Conversation();
  const traj = arr(r.traj, 'traj');
  traj.forEach((raw, i) => {
    const f = `traj[${i}]`;
    const m = obj(raw, f);
    const role = m.role;
    if (role === 'system') conv.system(str(m.content, `${f}.content`), f);
    else if (role === 'user') conv.user(flattenContent(m.content, `${f}.content`).text, 'simulated_user');
    else if (role === 'assistant') {
      const calls = m.tool_calls === undefined || m.tool_calls === null ? [] : arr(m.tool_calls, `${f}.tool_calls`);
      conv.assistant(
        flattenContent(m.content, `${f}.content`).text,
        null,
        calls.map((c, k) => {
          const cf = `${f}.tool_calls[${k}]`;
          const call = obj(c, cf);
          const fn = obj(call.function, `${cf}.function`);
          const args = fn.arguments;
          return {
            id: optStr(call.id, `${cf}.id`),
            name: str(fn.name, `${cf}.function.name`),
            rawArguments: typeof args === 'string' ? args : null,
            objectArguments: isObj(args) ? args : null,
          };
        }),
        f,
      );
    } else if (role === 'tool') {
      const content = flattenContent(m.content, `${f}.content`).text ?? '';
      conv.tool(content, {
        id: optStr(m.tool_call_id, `${f}.tool_call_id`),
        name: optStr(m.name, `${f}.name`),
        isError: content.startsWith('Error: '),
        field: f,
      });
    } else throw new RecordError(`${f}.role`, `unknown role ${JSON.stringify(role)}`);
  });
  const first = conv.messages[0];
  const domain = domainOfPolicy(first?.role === 'system' ? first.content : null);
  const last = conv.messages[conv.messages.length - 1];
  const rewardInfo = info?.reward_info;
  const termination =
    last?.role === 'user' && last.control === 'stop'
      ? 'user_stop'
      : last?.role === 'tool' && last.name === 'transfer_to_human_agents'
        ? 'transfer'
        : rewardInfo === null
          ? 'max_steps'
          : null;
  const trialId = trial ?? 0;
  const id = `tau-bench/${domain}/${taskId}/${trialId}`;
  const trajectory = trajectoryOf({
    id,
    taskId,
    model: '',
    format: 'tau-bench-v1',
    file: ctx.file,
    tools: [],
    conversation: conv,
    reward,
    termination,
    valid: true,
    invalidReason: null,
    metadata: {
      domain,
      trial: trialId,
      ...(info ? { info } : {}),
      ...(isObj(rewardInfo) && isObj(rewardInfo.info) ? { reward_components: rewardInfo.info } : {}),
    },
  });
  return {
    trajectory,
    row: {
      traceId: id,
      sourceTaskId: taskId,
      taskSource: taskSourceOf('tau-bench', domain),
      trial,
      reward,
      success: rewardSuccess(reward),
      tokens: null,
      durationMs: null,
      error: null,
      gradable: conv.fullyAnswered,
    },
    warnings: [],
  };
}
