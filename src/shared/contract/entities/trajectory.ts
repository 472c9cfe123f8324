import { z } from 'zod';

/**
 * A trajectory in CoworkEnv's canonical shape (reference/formats.md §1): OpenAI Chat Completions
 * messages (roles system / user / assistant / tool) with raw and parsed tool-call arguments, plus
 * what a run leaves besides messages — tool dispatches, audit snapshots, media loads, the run's end
 * (timings, usage) and gradings. It holds everything a Claw-Eval trace holds (reference/claw-eval.md
 * §8), so a trace converts to a trajectory and back byte for byte (src/main/core/traces/).
 *
 * Free-form values (arguments, response bodies, audit data) are JSON. In the core they may hold
 * PyFloat (core/py/pyjson.ts) so 328.0 stays 328.0: serialise a trajectory with the Python-aware
 * writers (dumpsPy / dumpsCompact / the trace writer), never with JSON.stringify.
 */
const int = z.number().int();
const Json = z.unknown();
const JsonObject = z.record(z.string(), z.unknown());

/** Where an item sits in its source trace: event index (0-based) and timestamp, kept for a lossless write-back. */
export const EventMeta = z.object({ seq: int.optional(), timestamp: z.string().optional() });
export type EventMeta = z.infer<typeof EventMeta>;

export const ToolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  /** `arguments`: the raw string as the model emitted it (verbatim) or as we serialised `parsed_arguments`. */
  function: z.object({ name: z.string(), arguments: z.string() }),
  parsed_arguments: JsonObject.nullable(),
  arguments_origin: z.enum(['verbatim', 'serialized']),
  requestor: z.enum(['assistant', 'user']),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const Usage = z.object({
  prompt_tokens: int,
  completion_tokens: int,
  /** Later upstream commits record cache tokens; kept when the source has them. */
  cached_input_tokens: int.optional(),
  cache_creation_input_tokens: int.optional(),
  cache_read_input_tokens: int.optional(),
});
export type Usage = z.infer<typeof Usage>;

/** Non-text content (Claw-Eval image / audio / video blocks), moved out of `content`. */
export const Attachment = z.object({
  type: z.enum(['image', 'audio', 'video']),
  data: z.string(),
  mime_type: z.string(),
  source_path: z.string().nullable(),
});
export type Attachment = z.infer<typeof Attachment>;

export const MessageMeta = z.looseObject({
  timestamp: z.string().optional(),
  usage: Usage.optional(),
  attachments: z.array(Attachment).optional(),
  /**
   * trace.seq: the source trace event; consecutive messages with one seq were one trace message
   * (a user message of several tool_result blocks becomes several tool messages).
   * trace.blocks: that message's content blocks verbatim, kept only when the canonical fields cannot
   * reproduce them (several text blocks, text after a tool_use…); the writer uses them while the
   * canonical fields still say the same.
   * trace.reasoning_content: reasoning on a non-assistant trace message (the canonical shape has none).
   */
  trace: z
    .object({ seq: int.optional(), blocks: z.array(Json).optional(), reasoning_content: z.string().optional() })
    .optional(),
});
export type MessageMeta = z.infer<typeof MessageMeta>;

export const SystemMessage = z.object({ role: z.literal('system'), content: z.string(), meta: MessageMeta.optional() });
export const UserMessage = z.object({
  role: z.literal('user'),
  content: z.string().nullable(),
  /** simulated_user: Claw-Eval's user agent ("[user_agent]\n" + reply, text kept verbatim). */
  origin: z.enum(['task', 'simulated_user', 'human']),
  control: z.enum(['stop', 'transfer', 'out_of_scope']).nullable().optional(),
  /** The simulated user's own calls (τ²-bench dual-control domains; requestor "user"), outside the agent view. */
  tool_calls: z.array(ToolCall).optional(),
  meta: MessageMeta.optional(),
});
export const AssistantMessage = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  reasoning: z.string().nullable(),
  tool_calls: z.array(ToolCall),
  meta: MessageMeta.optional(),
});
export const ToolMessage = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  name: z.string(),
  content: z.string(),
  is_error: z.boolean(),
  meta: MessageMeta.optional(),
});
export const Message = z.discriminatedUnion('role', [SystemMessage, UserMessage, AssistantMessage, ToolMessage]);
export type Message = z.infer<typeof Message>;
export type AssistantMessage = z.infer<typeof AssistantMessage>;
export type ToolMessage = z.infer<typeof ToolMessage>;

/** One tool call as the environment handled it (Claw-Eval tool_dispatch, §7.3). */
export const Dispatch = z.object({
  call_id: z.string(),
  tool: z.string(),
  /** "" when no endpoint is known for the tool (upstream answers 404 without a request). */
  endpoint: z.string(),
  args: JsonObject,
  status: int,
  body: Json,
  latency_ms: z.number(),
  meta: EventMeta.optional(),
});
export type Dispatch = z.infer<typeof Dispatch>;

/** A service's audit JSON as read after the run. A service may be snapshotted more than once: the last counts. */
export const AuditSnapshot = z.object({
  service: z.string(),
  url: z.string(),
  data: JsonObject,
  meta: EventMeta.optional(),
});
export type AuditSnapshot = z.infer<typeof AuditSnapshot>;

export const MediaLoad = z.object({
  modality: z.enum(['image', 'audio', 'video', 'document']),
  source_path: z.string(),
  mime_type: z.string(),
  size_bytes: int,
  sha256: z.string(),
  status: z.enum(['loaded', 'skipped', 'error']),
  note: z.string(),
  meta: EventMeta.optional(),
});
export type MediaLoad = z.infer<typeof MediaLoad>;

/** Context compaction (Claw-Eval's `compact` event; upstream's own reader rejects it, see traces/README.md). */
export const Compaction = z.object({
  layer: z.enum(['micro', 'auto', 'manual']),
  estimated_tokens_before: int,
  estimated_tokens_after: int,
  messages_before: int,
  messages_after: int,
  meta: EventMeta.optional(),
});
export type Compaction = z.infer<typeof Compaction>;

export const DimensionScores = z.object({
  completion: z.number(),
  robustness: z.number(),
  communication: z.number(),
  safety: z.number(),
  efficiency_turns: int,
  efficiency_tokens: int,
  efficiency_wall_time_s: z.number(),
});
export type DimensionScores = z.infer<typeof DimensionScores>;

/** The run's end: turns, token usage and timings (Claw-Eval trace_end). */
export const RunEnd = z.object({
  total_turns: int,
  model_input_tokens: int,
  model_output_tokens: int,
  input_tokens: int,
  output_tokens: int,
  cached_input_tokens: int.optional(),
  cache_creation_input_tokens: int.optional(),
  cache_read_input_tokens: int.optional(),
  total_tokens: int,
  model_time_s: z.number(),
  tool_time_s: z.number(),
  other_time_s: z.number(),
  wall_time_s: z.number(),
  scores: DimensionScores,
  task_score: z.number(),
  passed: z.boolean(),
  failure_modes: z.array(z.string()),
  user_agent_rounds: int,
  user_agent_max_rounds: int,
  user_agent_done: z.boolean(),
  meta: EventMeta.optional(),
});
export type RunEnd = z.infer<typeof RunEnd>;

/** A grading appended to the run (Claw-Eval grading_result). */
export const Grading = z.object({
  task_id: z.string(),
  scores: DimensionScores,
  task_score: z.number(),
  passed: z.boolean(),
  failure_modes: z.array(z.string()),
  judge_calls: z.array(JsonObject),
  user_agent_meta: JsonObject,
  meta: EventMeta.optional(),
});
export type Grading = z.infer<typeof Grading>;

export const SourceFormat = z.enum([
  'tau-bench-v1',
  'tau2-results',
  'openai-ft-jsonl',
  'claw-eval-trace',
  'messages-jsonl',
  'sharegpt',
  'studio',
]);
export type SourceFormat = z.infer<typeof SourceFormat>;

export const Trajectory = z.object({
  trajectory_id: z.string(),
  task_id: z.string(),
  model: z.string(),
  source: z.object({ format: SourceFormat, file: z.string().nullable() }),
  /** The Claw-Eval trace identity (trace_start): id, persona, start event. */
  trace: z.object({ trace_id: z.string(), persona: z.string(), meta: EventMeta.optional() }).nullable(),
  tools: z.array(Json),
  messages: z.array(Message),
  dispatches: z.array(Dispatch),
  audits: z.array(AuditSnapshot),
  media: z.array(MediaLoad),
  compactions: z.array(Compaction),
  end: RunEnd.nullable(),
  gradings: z.array(Grading),
  /**
   * The source's own dimensions: a Claw-Eval trace's last grading (formats.md §2.4), or what a
   * messages JSONL row gives (a top-level `completion`, formats.md §2.5); null when it has none.
   */
  scores: z
    .object({
      completion: z.number(),
      robustness: z.number().optional(),
      safety: z.number().optional(),
      communication: z.number().optional(),
    })
    .nullable(),
  reward: z.number().nullable(),
  termination: z.enum(['user_stop', 'transfer', 'agent_stop', 'max_steps', 'error', 'infra_error']).nullable(),
  valid: z.boolean(),
  invalid_reason: z.string().nullable(),
  metadata: JsonObject,
});
export type Trajectory = z.infer<typeof Trajectory>;

/** Scores and reward as formats.md §2.4 takes them: from the last grading; none → ungraded (invalid). */
export function gradingView(
  gradings: readonly Grading[],
): Pick<Trajectory, 'scores' | 'reward' | 'valid' | 'invalid_reason'> {
  const g = gradings[gradings.length - 1];
  if (!g) return { scores: null, reward: null, valid: false, invalid_reason: 'ungraded' };
  const { completion, robustness, safety, communication } = g.scores;
  return {
    scores: { completion, robustness, safety, communication },
    reward: g.task_score,
    valid: true,
    invalid_reason: null,
  };
}
