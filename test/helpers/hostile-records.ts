import fs from 'node:fs';
import path from 'node:path';

/**
 * Small valid records of the four line- and document-based import formats (formats.md §2.1–§2.5,
 * §3.3), each with a place for a hostile value: `extra` is merged into the record, so a test can
 * nest a field deep or give the reward it is about.
 */
type Extra = Record<string, unknown>;

/** JSON nested `n` levels: `[[…[1]…]]`. */
export const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
/** The same as a parsed value (JSON.parse is not recursive in V8: no stack is used). */
export const deepValue = (n: number): unknown => JSON.parse(deep(n));

export const openaiRow = (task: string, extra: Extra = {}) => ({
  task_id: task,
  trial: 0,
  reward: 1,
  messages: [
    { role: 'user', content: `please do ${task}` },
    { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'found' },
    { role: 'assistant', content: 'done' },
  ],
  ...extra,
});

export const sharegptRow = (task: string, extra: Extra = {}) => ({
  task_id: task,
  trial: 0,
  reward: 1,
  conversations: [
    { from: 'human', value: `please do ${task}` },
    { from: 'function_call', value: '{"name": "look", "arguments": {}}' },
    { from: 'observation', value: 'found' },
    { from: 'gpt', value: 'done' },
  ],
  ...extra,
});

export const tauBenchRecord = (task: number, extra: Extra = {}) => ({
  task_id: task,
  trial: 0,
  reward: 1,
  info: { task: { user_id: 'u1' }, reward_info: { reward: 1, info: { r_actions: 1 } } },
  traj: [
    { role: 'system', content: '# Airline Agent Policy\nBe kind.' },
    { role: 'user', content: `task ${task}` },
    { role: 'assistant', content: 'done' },
    { role: 'user', content: '###STOP###' },
  ],
  ...extra,
});

export const tau2Simulation = (task: string, extra: Extra = {}) => ({
  id: `sim-${task}`,
  task_id: task,
  trial: 0,
  termination_reason: 'user_stop',
  reward_info: { reward: 1, reward_basis: ['DB'] },
  messages: [
    { role: 'assistant', content: 'Hi! How can I help you today?' },
    { role: 'user', content: `task ${task} ###STOP###` },
  ],
  ...extra,
});

/** A τ²-bench results file: {info, tasks, simulations}, `header` merged into its top level. */
export const tau2File = (simulations: unknown[], header: Extra = {}) => ({
  timestamp: '2026-03-01T09:00:00',
  info: { agent_info: { llm: 'gpt-x' }, environment_info: { domain_name: 'airline', policy: 'Be kind.' } },
  tasks: [],
  simulations,
  ...header,
});

/**
 * JSON text with the placeholder string `"@@"` replaced by `raw` (so a test can put text that
 * JSON.stringify cannot produce — deep nesting without a stack, `1e400` — where a value goes).
 */
export const withRaw = (text: string, raw: string) => text.replace('"@@"', raw);

/** Writes `text` to `dir/name` and answers the path. */
export function writeIn(dir: string, name: string, text: string | Buffer): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
}

/** The 1-based line of the first occurrence of `needle` in `text`. */
export const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
