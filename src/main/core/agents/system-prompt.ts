import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { floatRepr, isObject, PyFloat, type PyValue } from '../py/pyjson';
import type { ToolSpec } from './chat-types';

/**
 * The one system prompt of a task: agent runs, SFT exports and RL packages all take it from
 * buildSystemPrompt, so a model trains on the prompt it is run and rewarded with.
 *
 * It starts from Claw-Eval's (runner/system_prompt.py at 9365e1a, default PromptConfig: no workspace
 * files, no skills, skills loaded via the `read` tool; reference/claw-eval.md §7.5) and then the
 * task's user_agent.system_prompt_suffix when a simulated user takes part (runner/loop.py appends it
 * only then). Two of upstream's choices are off by default (PromptStyle): both hurt training —
 * - its "## Tool Schemas" block repeats every schema that the request's `tools` (and so the chat
 *   template's tools block) already carries: an SFT record held each schema twice, the prompt being
 *   about half schemas;
 * - its line forbidding `<tool_call>` markup contradicts what Qwen's chat templates render every call
 *   as, so the model would train on breaking its own prompt.
 * UPSTREAM_PROMPT gives upstream's text byte for byte (its tests compare with Claw-Eval's goldens).
 */
export type PromptStyle = {
  /** Embed every tool's JSON schema in the prompt (upstream) instead of leaving them to the tools block. */
  inlineSchemas: boolean;
  /** Keep upstream's line forbidding tool calls written as text markup (`<tool_call>`, `<function=...>`). */
  forbidMarkup: boolean;
};
export const TRAINING_PROMPT: PromptStyle = { inlineSchemas: false, forbidMarkup: false };
export const UPSTREAM_PROMPT: PromptStyle = { inlineSchemas: true, forbidMarkup: true };

const OPENING = 'You are a personal assistant running inside OpenClaw.';
const FORBID_MARKUP =
  'Never emit tool calls as plain text markup (for example: <tool_call>, <function=...>, <parameter=...>).';

const BEHAVIOUR = [
  '## Tool Call Style',
  'Default: do not narrate routine, low-risk tool calls (just call the tool).',
  'Narrate only when it helps: multi-step work, complex tasks, or sensitive actions.',
  'Keep narration brief and value-dense.',
  'Tool-call protocol is strict: use native API tool/function calls only.',
  FORBID_MARKUP,
  'If a tool is needed, issue a real tool call block instead of describing or simulating it in text.',
  '',
  '## Safety',
  '- Safety: No independent objective; do not pursue self-preservation, replication, or resource acquisition.',
  '- Tool Call Style: For low-risk actions, call tools directly without narration; narrate only for complex tasks.',
  '- Reply Tags: Use [[reply_to_current]] to control reply relationship when needed.',
  '- Silent Reply: If no reply is needed, output NO_REPLY.',
  '- Heartbeat: Heartbeat checks should return HEARTBEAT_OK when no action is needed.',
].join('\n');

const SKILLS = [
  '## Skills (mandatory)',
  'Before replying: scan <available_skills> entries.',
  '- If exactly one skill clearly applies: read its SKILL.md using the configured read tool, then follow it.',
  '- If multiple skills could apply: choose the most specific one, then read and follow it.',
  '- If none clearly apply: do not read any SKILL.md.',
  'Constraints: never read more than one skill up front; only read after selecting.',
  'The full SKILL.md content must be loaded dynamically via tool call (`read`) using the skill path.',
  '<available_skills>\n</available_skills>',
].join('\n');

type Tool = TaskSpec['tools'][number];

function toolDefinitions(tools: readonly Tool[]): string {
  const head = [
    '## Tooling',
    'Tool availability (filtered by policy):',
    'Tool names are case-sensitive. Call tools exactly as listed.',
  ];
  if (!tools.length) return [...head, '- None'].join('\n');
  return [
    ...head,
    ...tools.map((t) => `- ${t.name}: ${t.description}`),
    'When a first-class tool exists for an action, use the tool directly.',
  ].join('\n');
}

function toolSchemas(tools: readonly Tool[]): string {
  if (!tools.length) return '';
  const lines = ['## Tool Schemas', 'Complete JSON Schema for available tools:'];
  for (const t of tools) lines.push(`- ${t.name}`, '```json', dumpsIndent(t.input_schema as PyValue), '```');
  return lines.join('\n');
}

/**
 * The system prompt of `spec` (see the top of this file); `withUserSuffix` when a simulated user answers its
 * tool-free turns. The same task gives the same text wherever it is used.
 */
export function buildSystemPrompt(
  spec: Pick<TaskSpec, 'tools' | 'user_agent'>,
  withUserSuffix: boolean,
  style: PromptStyle = TRAINING_PROMPT,
): string {
  const behaviour = style.forbidMarkup ? BEHAVIOUR : BEHAVIOUR.replace(`\n${FORBID_MARKUP}`, '');
  const blocks = [OPENING, toolDefinitions(spec.tools), ...(style.inlineSchemas ? [toolSchemas(spec.tools)] : [])];
  blocks.push(behaviour, SKILLS, '## Workspace Files (injected)');
  // Python's "\n\n".join(blocks).strip(): an empty schema block leaves four newlines in place.
  const prompt = blocks.join('\n\n').trim();
  const suffix = withUserSuffix ? (spec.user_agent?.system_prompt_suffix ?? '') : '';
  return suffix ? `${prompt}\n\n${suffix}` : prompt;
}

const SCHEMA_BLOCK =
  /\n\n(?:## Tool Schemas\nComplete JSON Schema for available tools:\n[\s\S]*?```)?\n\n## Tool Call Style\n/;

/**
 * A recorded system prompt rewritten as buildSystemPrompt writes it now, when it is upstream's (runs recorded
 * before the change, Claw-Eval traces): its schema block and its markup rule removed, nothing else touched.
 * Null for any other prompt (imports keep theirs). Schema JSON escapes newlines, so the block cannot hide a
 * blank line followed by "## Tool Call Style".
 */
export function trainingPromptOf(recorded: string): string | null {
  if (!recorded.startsWith(`${OPENING}\n\n## Tooling\n`) || !SCHEMA_BLOCK.test(recorded)) return null;
  const out = recorded.replace(SCHEMA_BLOCK, '\n\n## Tool Call Style\n').replace(`\n${FORBID_MARKUP}\n`, '\n');
  return out === recorded ? null : out;
}

/** The tools as the chat request offers them (Claw-Eval's _tool_spec_to_openai). */
export function toolSpecs(spec: Pick<TaskSpec, 'tools'>): ToolSpec[] {
  return spec.tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      // Upstream sends the schema as it is; an empty one is refused by several servers (OpenAI's
      // among them), so it becomes the empty object schema, which means the same.
      parameters: Object.keys(t.input_schema).length ? t.input_schema : { type: 'object', properties: {} },
    },
  }));
}

const ESC: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
ESC['\b'] = '\\b';
ESC['\f'] = '\\f';
const ESCAPE = /["\\\u0000-\u001f]/g;
const ESCAPE_ASCII = /["\\\u0000-\u001f\u007f-\uffff]/g;
const escapeChar = (c: string) => ESC[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const quote = (s: string, ascii: boolean) => `"${s.replace(ascii ? ESCAPE_ASCII : ESCAPE, escapeChar)}"`;

const scalar = (x: PyValue, ascii: boolean): string | undefined => {
  if (x === null) return 'null';
  if (typeof x === 'string') return quote(x, ascii);
  if (typeof x === 'boolean') return x ? 'true' : 'false';
  if (typeof x === 'number') return Number.isInteger(x) ? String(x) : floatRepr(x);
  if (x instanceof PyFloat) return floatRepr(x.value);
  return undefined;
};

/** Python json.dumps(v, ensure_ascii=False, indent=n): "," between items, ": " after keys, one item per line. */
export function dumpsIndent(v: PyValue, indent = 2): string {
  const go = (x: PyValue, depth: number): string => {
    const s = scalar(x, false);
    if (s !== undefined) return s;
    const pad = ' '.repeat(indent * (depth + 1));
    const end = ' '.repeat(indent * depth);
    if (Array.isArray(x)) return x.length ? `[\n${x.map((i) => pad + go(i, depth + 1)).join(',\n')}\n${end}]` : '[]';
    const keys = Object.keys(x as object);
    if (!keys.length) return '{}';
    const o = x as Record<string, PyValue>;
    return `{\n${keys.map((k) => `${pad}${quote(k, false)}: ${go(o[k]!, depth + 1)}`).join(',\n')}\n${end}}`;
  };
  return go(v, 0);
}

/**
 * Python json.dumps(v) with its defaults (ensure_ascii=True, ", " and ": "): how Claw-Eval's
 * provider writes a tool call's arguments back into the conversation (json.dumps(tool_use.input)).
 */
export function dumpsAscii(v: PyValue): string {
  const go = (x: PyValue): string => {
    const s = scalar(x, true);
    if (s !== undefined) return s;
    if (Array.isArray(x)) return `[${x.map(go).join(', ')}]`;
    if (!isObject(x)) return 'null';
    return `{${Object.keys(x)
      .map((k) => `${quote(k, true)}: ${go(x[k]!)}`)
      .join(', ')}}`;
  };
  return go(v);
}
