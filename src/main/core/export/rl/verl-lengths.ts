import { freshEnvironment, taskClock, type ExportTask } from '../export-task';
import type { PyValue } from '../../py/pyjson';
import type { OpenAiTool } from './package-tasks';

/**
 * What measures text for the length limits. `unit: 'tokens'` only with a real tokenizer of the model the
 * user trains; without one the package counts characters and says so (`unit: 'characters'`): for BPE
 * tokenizers a character count is an upper bound of the token count, never presented as tokens.
 */
export type TextCounter = { name: string; unit: 'tokens' | 'characters'; countTokens(text: string): number };

export const CHARACTER_COUNTER: TextCounter = {
  name: 'characters (no tokenizer in this build)',
  unit: 'characters',
  countTokens: (text) => [...text].length,
};

/** The limits written into the train config, with what they were measured from. */
export type VerlLengths = {
  unit: TextCounter['unit'];
  counter: string;
  /** data.max_prompt_length: the longest task prompt (system, user, tool schemas) with headroom. */
  maxPromptLength: number;
  /** data.max_response_length: the longest reference episode (calls, results, answer) with headroom. */
  maxResponseLength: number;
  /** multi_turn.max_tool_response_length: verl cuts tool results by characters (len(str)), never tokens. */
  maxToolResponseChars: number;
  maxAssistantTurns: number;
  maxUserTurns: number;
  measured: {
    longestPrompt: { task_id: string; length: number };
    longestEpisode: { task_id: string; length: number } | null;
    longestToolResult: { task_id: string; tool: string; characters: number } | null;
    tasksWithReferencePlan: number;
    tasks: number;
  };
};

const roundUp = (n: number, step: number) => Math.max(step, Math.ceil(n / step) * step);
/** Chat-template markup per message and a margin for tokenizer differences: 10% plus 64. */
const withHeadroom = (n: number) => Math.ceil(n * 1.1) + 64;

export type LengthTask = { task: ExportTask; systemPrompt: string; tools: OpenAiTool[] };

/**
 * Limits from the package's own tasks: each task's prompt as the model sees it, and its reference plan
 * stepped through a fresh environment (the results the model would read) with its reference answer.
 */
export function verlLengths(tasks: readonly LengthTask[], counter: TextCounter, clock: Date): VerlLengths {
  let prompt = { task_id: '', length: 0 };
  let episode: VerlLengths['measured']['longestEpisode'] = null;
  let toolResult: VerlLengths['measured']['longestToolResult'] = null;
  let withPlan = 0;
  let turns = 1;
  let rounds = 0;
  for (const { task, systemPrompt, tools } of tasks) {
    const s = task.spec;
    const p =
      counter.countTokens(systemPrompt) +
      counter.countTokens(s.prompt.text) +
      counter.countTokens(JSON.stringify(tools));
    if (p > prompt.length) prompt = { task_id: s.task_id, length: p };
    turns = Math.max(turns, s.environment.max_turns);
    if (s.user_agent?.enabled) rounds = Math.max(rounds, s.user_agent.max_rounds ?? 0);
    if (!s.reference_plan?.length) continue;
    withPlan++;
    const env = freshEnvironment(task, taskClock(s, clock));
    let len = counter.countTokens(s.reference_final_text ?? '');
    for (const step of s.reference_plan) {
      const text = env.call(step.tool, step.args as PyValue).text;
      len += counter.countTokens(JSON.stringify({ name: step.tool, arguments: step.args })) + counter.countTokens(text);
      const chars = [...text].length;
      if (!toolResult || chars > toolResult.characters)
        toolResult = { task_id: s.task_id, tool: step.tool, characters: chars };
    }
    if (!episode || len > episode.length) episode = { task_id: s.task_id, length: len };
  }
  return {
    unit: counter.unit,
    counter: counter.name,
    maxPromptLength: roundUp(withHeadroom(prompt.length), 128),
    // An episode the reference plan does not cover still gets room for a few turns of results.
    maxResponseLength: roundUp(withHeadroom(Math.max(episode?.length ?? 0, 4 * (toolResult?.characters ?? 256))), 256),
    maxToolResponseChars: roundUp(toolResult?.characters ?? 256, 256),
    maxAssistantTurns: turns,
    maxUserTurns: turns + rounds,
    measured: {
      longestPrompt: prompt,
      longestEpisode: episode,
      longestToolResult: toolResult,
      tasksWithReferencePlan: withPlan,
      tasks: tasks.length,
    },
  };
}
