import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import { Conversation, flattenContent, type SourceCall } from './conversation';
import { trajectoryOf, usageOf, type FormatContext, type Normalized } from './normalized';
import { arr, isObj, obj, optStr, RecordError, rewardOf, rewardSuccess, str, taskIdOf, trialOf } from './record-error';
import type { Obj } from './record-error';
import { taskSourceOf } from '../task-key';

/**
 * The agent's system prompt τ²-bench's LLM agent sends (its <instructions> wrapper as the τ² SFT
 * data of v1 shows it, formats.md §2.2 quirk 3); the results file holds only the domain policy.
 * Rebuilt for fidelity; the trajectory's metadata.system_prompt says it was rebuilt from this template.
 */
export const TAU2_SYSTEM_TEMPLATE = 'tau2-llm-agent (train_sft-v1 wrapper)';
const TAU2_INSTRUCTIONS = [
  'You are a customer service agent that helps the user according to the <policy> provided below.',
  'During each turn you can either:',
  '- Send a message to the user.',
  '- Make a tool call.',
  'IMPORTANT: You cannot do both at the same time!!',
  'If you send text content while making a tool call, the agent will raise an error.',
  'Text content will be sent to the user. Do not use this field for your own reasoning.',
  '',
  'Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.',
].join('\n');
export const tau2SystemPrompt = (policy: string) =>
  `<instructions>\n${TAU2_INSTRUCTIONS}\n</instructions>\n<policy>\n${policy}\n</policy>`;

/** upstream termination reasons → ours (formats.md §2.2 quirk 9). */
const TERMINATION: Record<string, Trajectory['termination']> = {
  user_stop: 'user_stop',
  agent_stop: 'agent_stop',
  max_steps: 'max_steps',
  too_many_errors: 'error',
  agent_error: 'error',
  user_error: 'error',
  infrastructure_error: 'infra_error',
};

const taskIndex = new WeakMap<Obj, Map<string, unknown>>();
function taskOf(header: Obj | null, id: string): unknown {
  if (!header || !Array.isArray(header.tasks)) return undefined;
  let m = taskIndex.get(header);
  if (!m) {
    m = new Map(header.tasks.flatMap((t) => (isObj(t) && t.id !== undefined ? [[String(t.id), t] as const] : [])));
    taskIndex.set(header, m);
  }
  return m.get(id);
}

const pathOf = (h: Obj | null, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), h);

/** Flat τ² calls {id, name, arguments: object}; the raw strings come from raw_data.message.tool_calls by id. */
function callsOf(m: Obj, f: string): SourceCall[] {
  if (m.tool_calls === undefined || m.tool_calls === null) return [];
  const rawById = new Map<string, string>();
  const rawCalls = pathOf(m, 'raw_data', 'message', 'tool_calls');
  if (Array.isArray(rawCalls))
    for (const rc of rawCalls)
      if (isObj(rc) && typeof rc.id === 'string' && isObj(rc.function) && typeof rc.function.arguments === 'string')
        rawById.set(rc.id, rc.function.arguments);
  return arr(m.tool_calls, `${f}.tool_calls`).map((c, k) => {
    const cf = `${f}.tool_calls[${k}]`;
    const call = obj(c, cf);
    const id = optStr(call.id, `${cf}.id`);
    const args = call.arguments;
    if (!isObj(args) && typeof args !== 'string')
      throw new RecordError(`${cf}.arguments`, 'must be an object or a string');
    return {
      id,
      name: str(call.name, `${cf}.name`),
      rawArguments: typeof args === 'string' ? args : id !== null ? (rawById.get(id) ?? null) : null,
      objectArguments: isObj(args) ? args : null,
      requestor: call.requestor === 'user' ? 'user' : 'assistant',
    };
  });
}

/**
 * One simulation of a τ²-bench results file (formats.md §2.2), read with the file's header
 * ({info, tasks, timestamp}). The system prompt is rebuilt from the domain policy; user-side calls
 * (dual control) are kept on the user message's meta and their results marked requestor "user".
 */
export function readTau2(value: unknown, ctx: FormatContext): Normalized {
  const s = obj(value, '');
  const taskId = taskIdOf(s.task_id, 'task_id');
  const trial = trialOf(s.trial, 'trial');
  const rewardInfo = s.reward_info === undefined || s.reward_info === null ? null : obj(s.reward_info, 'reward_info');
  const reward = rewardOf(rewardInfo?.reward, 'reward_info.reward', ctx);
  const conv = new Conversation();
  const policy = pathOf(ctx.header, 'info', 'environment_info', 'policy');
  if (typeof policy === 'string') conv.system(tau2SystemPrompt(policy), 'info.environment_info.policy');
  arr(s.messages, 'messages').forEach((raw, i) => {
    const f = `messages[${i}]`;
    const m = obj(raw, f);
    const meta: Obj = {};
    for (const k of ['turn_idx', 'timestamp', 'cost'] as const) if (m[k] !== undefined && m[k] !== null) meta[k] = m[k];
    const usage = usageOf(m.usage);
    if (usage) meta.usage = usage;
    const text = () => flattenContent(m.content, `${f}.content`).text;
    if (m.role === 'assistant') conv.assistant(text(), optStr(m.reasoning, `${f}.reasoning`), callsOf(m, f), f, meta);
    else if (m.role === 'user') {
      conv.user(text(), 'simulated_user', meta, callsOf(m, f));
    } else if (m.role === 'tool')
      conv.tool(text() ?? '', { id: optStr(m.id, `${f}.id`), name: null, isError: m.error === true, field: f, meta });
    else if (m.role === 'system') conv.system(str(m.content, `${f}.content`), f, meta);
    else throw new RecordError(`${f}.role`, `unknown role ${JSON.stringify(m.role)}`);
  });
  const reason = typeof s.termination_reason === 'string' ? s.termination_reason : null;
  const termination = reason === null ? null : (TERMINATION[reason] ?? 'error');
  const valid = reason !== 'infrastructure_error';
  const model = pathOf(ctx.header, 'info', 'agent_info', 'llm');
  const domain = pathOf(ctx.header, 'info', 'environment_info', 'domain_name');
  const trialId = trial ?? 0;
  const simId = typeof s.id === 'string' && s.id ? s.id : `tau2/${domain ?? 'unknown'}/${taskId}/${trialId}`;
  const task = taskOf(ctx.header, taskId);
  const { reward: _r, ...components } = rewardInfo ?? {};
  const trajectory = trajectoryOf({
    id: `tau2/${typeof domain === 'string' ? domain : 'unknown'}/${taskId}/${trialId}`,
    taskId,
    model: typeof model === 'string' ? model : '',
    format: 'tau2-results',
    file: ctx.file,
    tools: (pathOf(ctx.header, 'info', 'environment_info', 'tool_defs') as unknown[] | null) ?? [],
    conversation: conv,
    reward,
    termination,
    valid,
    invalidReason: valid ? null : 'infrastructure_error',
    metadata: {
      domain: domain ?? null,
      trial: trialId,
      simulation_id: simId,
      ...(typeof policy === 'string' ? { system_prompt: TAU2_SYSTEM_TEMPLATE } : {}),
      ...pick(s, ['seed', 'timestamp', 'start_time', 'end_time', 'duration', 'termination_reason', 'agent_cost']),
      ...pick(s, ['user_cost']),
      user_simulator: pathOf(ctx.header, 'info', 'user_info', 'llm') ?? null,
      ...(rewardInfo ? { reward_components: components } : {}),
      ...(task !== undefined ? { task } : {}),
    },
  });
  const duration = typeof s.duration === 'number' && Number.isFinite(s.duration) ? s.duration : null;
  let tokens: number | null = null;
  for (const m of conv.messages)
    if (m.role === 'assistant' && m.meta?.usage)
      tokens = (tokens ?? 0) + m.meta.usage.prompt_tokens + m.meta.usage.completion_tokens;
  return {
    trajectory,
    row: {
      traceId: simId,
      sourceTaskId: taskId,
      taskSource: taskSourceOf('tau2', domain),
      trial,
      reward,
      success: rewardSuccess(reward),
      tokens,
      durationMs: duration === null ? null : Math.round(duration * 1000),
      error: valid ? null : 'infrastructure_error',
      gradable: conv.fullyAnswered,
    },
    warnings: [],
  };
}

function pick(o: Obj, keys: string[]): Obj {
  const out: Obj = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
