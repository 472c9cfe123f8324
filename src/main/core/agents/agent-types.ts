import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Message } from '../../../shared/contract/entities/trajectory';
import type { Attempt, ChatMessage, ToolSpec, Usage } from './chat-types';

/**
 * The parties of an episode (reference/claw-eval.md §7.5, §10): the agent under test, which
 * answers each turn with text and/or tool calls, and the simulated user, consulted on the agent's
 * tool-free turns of multi-turn tasks. Both are given the abort signal of the episode: a cancel
 * stops a model call at once.
 */

/** A tool call as the agent produced it: the raw argument string, and whether it is the model's own bytes. */
export type AgentToolCall = { id: string; name: string; arguments: string; origin: 'verbatim' | 'serialized' };

export type AgentReply = {
  content: string | null;
  reasoning: string | null;
  toolCalls: AgentToolCall[];
  /** Token usage as the server reported it (null: not reported; the reference agent has none). */
  usage: Usage | null;
  /** Wall time of the model call, waits between retries included, ms (0 for the reference agent). */
  latencyMs: number;
  /** The HTTP attempts when there was more than one (429s, 5xx… retried). */
  attempts?: Attempt[];
  /** The model the server says answered. */
  model?: string;
};

export type AgentView = {
  spec: TaskSpec;
  /** The conversation as sent to a model: system prompt, user prompt, assistant turns, tool results. */
  wire: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  /** 0-based index of this model call. */
  turn: number;
  signal: AbortSignal;
};

/** One episode's agent: the reference agent keeps its place in the plan between turns. */
export type AgentSession = {
  turn(view: AgentView): Promise<AgentReply>;
  /** What the trajectory records about this episode's agent (metadata.agent), e.g. perturbations applied. */
  info(): Record<string, unknown>;
};

export type Agent = {
  kind: 'model' | 'reference';
  /** Shown wherever its trajectories appear: the endpoint and model, or "reference agent" (never a model name). */
  label: string;
  /** The model id asked for ('' for the reference agent: it is not a model). */
  model: string;
  begin(spec: TaskSpec, trial: number): AgentSession;
};

/** The simulated user's answer: its text, or null when it is done ([DONE], an empty reply, or it gave up). */
export type UserReply = {
  text: string | null;
  /** What it said, verbatim ([DONE] included); null when it said nothing. */
  raw: string | null;
  usage: Usage | null;
  latencyMs: number;
  /** Why it gave up (its model failed after retries): counted as done, as upstream does. */
  error?: string;
};

export type UserSimulator = {
  kind: 'scripted' | 'model';
  /** Recorded on each of its messages (meta.simulator) and in the trajectory's metadata. */
  label: string;
  reply(input: { spec: TaskSpec; messages: readonly Message[]; signal: AbortSignal }): Promise<UserReply>;
};

/** The text a message shows (Claw-Eval's Message.text): tool results have none. */
export const messageText = (m: Message): string =>
  m.role === 'tool' ? '' : typeof m.content === 'string' ? m.content : '';
