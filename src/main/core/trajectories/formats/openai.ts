import { createHash } from 'node:crypto';
import { Conversation, flattenContent, type SourceCall } from './conversation';
import { assistantTokens, trajectoryOf, usageOf, type FormatContext, type Normalized } from './normalized';
import { arr, isObj, obj, optStr, RecordError, rewardOf, str, taskIdOf, trialOf, type Obj } from './record-error';

/** Fields of a messages-JSONL row beyond the OpenAI fine-tuning line (formats.md §2.5). */
const SCORED = ['reward', 'task_id', 'trial', 'completion', 'scores', 'success', 'passed'];
const KNOWN = new Set(['messages', 'tools', 'functions', 'parallel_tool_calls', 'model', 'metadata', ...SCORED]);

/** A task id for rows that have none: a hash of the first user message, so trials of one prompt group together. */
export function derivedTaskId(conv: Conversation): string {
  const first = conv.messages.find((m) => m.role === 'user');
  const text = first?.content ?? '';
  return `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

function callsOf(m: Obj, f: string): SourceCall[] {
  const calls: SourceCall[] = [];
  if (m.tool_calls !== undefined && m.tool_calls !== null)
    arr(m.tool_calls, `${f}.tool_calls`).forEach((c, k) => {
      const cf = `${f}.tool_calls[${k}]`;
      const call = obj(c, cf);
      // The OpenAI shape nests name and arguments in `function`; τ²-style flat calls are accepted too.
      const fn = isObj(call.function) ? call.function : call;
      const args = fn.arguments;
      if (typeof args !== 'string' && !isObj(args))
        throw new RecordError(`${cf}.function.arguments`, 'must be a JSON string or an object');
      calls.push({
        id: optStr(call.id, `${cf}.id`),
        name: str(fn.name, `${cf}.function.name`),
        rawArguments: typeof args === 'string' ? args : null,
        objectArguments: isObj(args) ? args : null,
      });
    });
  // The legacy single function_call becomes one tool call (its result is a role "function" message).
  if (isObj(m.function_call)) {
    const fc = m.function_call;
    const args = fc.arguments;
    calls.push({
      id: null,
      name: str(fc.name, `${f}.function_call.name`),
      rawArguments: typeof args === 'string' ? args : null,
      objectArguments: isObj(args) ? args : null,
    });
  }
  return calls;
}

/** The messages of an OpenAI-style row (also used for sharegpt after its roles are mapped). */
export function readMessages(list: unknown[], field: string): Conversation {
  const conv = new Conversation();
  list.forEach((raw, i) => {
    const f = `${field}[${i}]`;
    const m = obj(raw, f);
    const { text, parts } = flattenContent(m.content, `${f}.content`);
    const meta: Obj = {};
    if (parts) meta.content_parts = parts;
    if (m.weight === 0 || m.weight === 1) meta.train_weight = m.weight;
    const usage = usageOf(m.usage);
    if (usage) meta.usage = usage;
    const metaOrNone = Object.keys(meta).length ? meta : undefined;
    switch (m.role) {
      case 'system':
        conv.system(text ?? '', f, metaOrNone);
        break;
      case 'user':
        conv.user(text, 'human', metaOrNone);
        break;
      case 'assistant':
        conv.assistant(
          text,
          optStr(m.reasoning ?? m.reasoning_content, `${f}.reasoning`),
          callsOf(m, f),
          f,
          metaOrNone,
        );
        break;
      case 'tool':
      case 'function':
        conv.tool(text ?? '', {
          id: optStr(m.tool_call_id, `${f}.tool_call_id`),
          name: optStr(m.name, `${f}.name`),
          isError: m.is_error === true || m.error === true,
          field: f,
          ...(metaOrNone ? { meta: metaOrNone } : {}),
        });
        break;
      default:
        throw new RecordError(`${f}.role`, `unknown role ${JSON.stringify(m.role)}`);
    }
  });
  return conv;
}

const DIMENSIONS = ['robustness', 'safety', 'communication'];

/**
 * {completion, scores} of a messages row → the Trajectory's source scores (formats.md §2.5), each
 * bounded as a reward is (§1.7). Read back from the workspace, the dimensions are what they were
 * when stored: finite numbers kept, other values dropped.
 */
function scoresOf(r: Obj, ctx: FormatContext): { completion: number } | null {
  const s = isObj(r.scores) ? r.scores : {};
  const dims: Obj = {};
  for (const k of DIMENSIONS) {
    const v = s[k];
    const x = ctx.stored ? (typeof v === 'number' && Number.isFinite(v) ? v : null) : rewardOf(v, `scores.${k}`);
    if (x !== null) dims[k] = x;
  }
  const c = r.completion ?? s.completion;
  const completion = rewardOf(c, r.completion !== undefined ? 'completion' : 'scores.completion', ctx);
  return completion === null ? null : { ...dims, completion };
}

/**
 * An OpenAI fine-tuning line or a messages-JSONL row with reward fields (formats.md §2.3, §2.5):
 * only `messages` is required. Rows with none of the reward fields are openai-ft-jsonl (unscored,
 * task id derived from the first user message); the others messages-jsonl.
 */
export function readOpenAi(value: unknown, ctx: FormatContext, conv?: Conversation): Normalized {
  const r = obj(value, '');
  const c = conv ?? readMessages(arr(r.messages, 'messages'), 'messages');
  const scored = SCORED.some((k) => r[k] !== undefined);
  const reward = rewardOf(r.reward, 'reward', ctx);
  const trial = trialOf(r.trial, 'trial');
  const taskId = r.task_id === undefined || r.task_id === null ? derivedTaskId(c) : taskIdOf(r.task_id, 'task_id');
  const flag = r.success ?? r.passed;
  if (flag !== undefined && flag !== null && typeof flag !== 'boolean')
    throw new RecordError(r.success !== undefined ? 'success' : 'passed', 'must be a boolean');
  const metadata: Obj = isObj(r.metadata) ? { ...r.metadata } : {};
  for (const k of Object.keys(r)) if (!KNOWN.has(k) && k !== 'conversations' && k !== 'system') metadata[k] = r[k];
  if (r.parallel_tool_calls !== undefined) metadata.parallel_tool_calls = r.parallel_tool_calls;
  if (trial !== null) metadata.trial = trial;
  const model = typeof r.model === 'string' ? r.model : typeof metadata.model === 'string' ? metadata.model : '';
  const tools = r.tools ?? r.functions;
  const format = conv ? 'sharegpt' : scored ? 'messages-jsonl' : 'openai-ft-jsonl';
  const id = `${format}/${taskId}/${trial ?? 'x'}`;
  const trajectory = trajectoryOf({
    id,
    taskId,
    model,
    format,
    file: ctx.file,
    tools: tools === undefined || tools === null ? [] : arr(tools, r.tools !== undefined ? 'tools' : 'functions'),
    conversation: c,
    reward,
    scores: scoresOf(r, ctx),
    termination: null,
    valid: true,
    invalidReason: null,
    metadata,
  });
  return {
    trajectory,
    row: {
      traceId: typeof r.id === 'string' && r.id ? r.id : id,
      sourceTaskId: taskId,
      taskSource: null,
      trial,
      reward,
      success: typeof flag === 'boolean' ? flag : null,
      tokens: assistantTokens(trajectory),
      durationMs: null,
      error: null,
      gradable: c.fullyAnswered,
    },
    warnings: [],
  };
}
