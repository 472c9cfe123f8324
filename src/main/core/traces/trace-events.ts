import { z } from 'zod';
import { isObject, PyFloat, type PyObject, type PyValue } from '../py/pyjson';

/**
 * Claw-Eval's trace events (reference/claw-eval.md §8.2, upstream models/trace.py, message.py,
 * content.py) with upstream's defaults. The shape order of each object is the field order on the
 * wire (trace-write.ts follows it). Numbers arrive as parsePyJson gives them (a PyFloat for a
 * number written with '.' or an exponent); typed fields unwrap them, `any` fields keep them, so
 * 328.0 in a response body is still 328.0 when written back.
 */
const unwrap = (v: unknown) => (v instanceof PyFloat ? v.value : v);
/** pydantic `int` (lax): 12 and 12.0 are 12; 12.5 is refused. */
const int = () => z.preprocess(unwrap, z.number().int());
/** pydantic `float`: ints accepted, always written with a decimal point. */
const float = () => z.preprocess(unwrap, z.number());
const any = () => z.custom<PyValue>(() => true);
const obj = () => z.custom<PyObject>((v) => isObject(v), 'expected an object');

export const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const MediaBlock = <T extends 'image' | 'audio' | 'video'>(t: T) =>
  z.object({
    type: z.literal(t),
    data: z.string(),
    mime_type: z.string(),
    source_path: z.string().nullable().default(null),
  });
export const ContentBlock = z.discriminatedUnion('type', [
  TextBlock,
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: obj().default(() => ({})) }),
  z.object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.array(TextBlock).default(() => []),
    is_error: z.boolean().default(false),
  }),
  MediaBlock('image'),
  MediaBlock('audio'),
  MediaBlock('video'),
]);
export type ContentBlock = z.infer<typeof ContentBlock>;

export const TraceMessageBody = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  // Upstream coerces a plain string into one text block (Message._coerce_str_content).
  content: z
    .preprocess((c) => (typeof c === 'string' ? [{ type: 'text', text: c }] : c), z.array(ContentBlock))
    .default(() => []),
  reasoning_content: z.string().nullable().default(null),
});
export type TraceMessageBody = z.infer<typeof TraceMessageBody>;

/** TokenUsage. The cache fields exist only in later upstream commits: optional, written when read. */
export const Usage = z.object({
  input_tokens: int().default(0),
  output_tokens: int().default(0),
  cached_input_tokens: int().optional(),
  cache_creation_input_tokens: int().optional(),
  cache_read_input_tokens: int().optional(),
});
export type Usage = z.infer<typeof Usage>;

export const DimensionScores = z.object({
  completion: float().default(0),
  robustness: float().default(0),
  communication: float().default(0),
  safety: float().default(1),
  efficiency_turns: int().default(0),
  efficiency_tokens: int().default(0),
  efficiency_wall_time_s: float().default(0),
});
export type DimensionScores = z.infer<typeof DimensionScores>;
export const DEFAULT_SCORES: DimensionScores = {
  completion: 0,
  robustness: 0,
  communication: 0,
  safety: 1,
  efficiency_turns: 0,
  efficiency_tokens: 0,
  efficiency_wall_time_s: 0,
};

const head = { trace_id: z.string() };
const timestamp = z.string();

export const EVENT_SCHEMAS = {
  trace_start: z.object({
    type: z.literal('trace_start'),
    ...head,
    task_id: z.string(),
    model: z.string(),
    persona: z.string().default('default'),
    timestamp,
  }),
  message: z.object({
    type: z.literal('message'),
    ...head,
    message: TraceMessageBody,
    usage: Usage.default(() => ({ input_tokens: 0, output_tokens: 0 })),
    timestamp,
  }),
  tool_dispatch: z.object({
    type: z.literal('tool_dispatch'),
    ...head,
    tool_use_id: z.string(),
    tool_name: z.string(),
    endpoint_url: z.string(),
    request_body: obj().default(() => ({})),
    response_status: int().default(200),
    response_body: any().default(null),
    latency_ms: float().default(0),
    timestamp,
  }),
  audit_snapshot: z.object({
    type: z.literal('audit_snapshot'),
    ...head,
    service_name: z.string(),
    audit_url: z.string(),
    audit_data: obj().default(() => ({})),
    timestamp,
  }),
  media_load: z.object({
    type: z.literal('media_load'),
    ...head,
    modality: z.enum(['image', 'audio', 'video', 'document']),
    source_path: z.string(),
    mime_type: z.string(),
    size_bytes: int(),
    sha256: z.string(),
    status: z.enum(['loaded', 'skipped', 'error']).default('loaded'),
    note: z.string().default(''),
    timestamp,
  }),
  compact: z.object({
    type: z.literal('compact'),
    ...head,
    layer: z.enum(['micro', 'auto', 'manual']),
    estimated_tokens_before: int().default(0),
    estimated_tokens_after: int().default(0),
    messages_before: int().default(0),
    messages_after: int().default(0),
    timestamp,
  }),
  trace_end: z.object({
    type: z.literal('trace_end'),
    ...head,
    total_turns: int().default(0),
    model_input_tokens: int().default(0),
    model_output_tokens: int().default(0),
    input_tokens: int().default(0),
    output_tokens: int().default(0),
    cached_input_tokens: int().optional(),
    cache_creation_input_tokens: int().optional(),
    cache_read_input_tokens: int().optional(),
    total_tokens: int().default(0),
    model_time_s: float().default(0),
    tool_time_s: float().default(0),
    other_time_s: float().default(0),
    wall_time_s: float().default(0),
    scores: DimensionScores.default(() => ({ ...DEFAULT_SCORES })),
    task_score: float().default(0),
    passed: z.boolean().default(false),
    failure_modes: z.array(z.string()).default(() => []),
    user_agent_rounds: int().default(0),
    user_agent_max_rounds: int().default(0),
    user_agent_done: z.boolean().default(false),
    timestamp,
  }),
  grading_result: z.object({
    type: z.literal('grading_result'),
    ...head,
    task_id: z.string(),
    scores: DimensionScores.default(() => ({ ...DEFAULT_SCORES })),
    task_score: float().default(0),
    passed: z.boolean().default(false),
    failure_modes: z.array(z.string()).default(() => []),
    judge_calls: z.array(obj()).default(() => []),
    user_agent_meta: obj().default(() => ({})),
    timestamp,
  }),
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as EventType[];
export type TraceEvent = { [K in EventType]: z.infer<(typeof EVENT_SCHEMAS)[K]> }[EventType];
export type EventOf<K extends EventType> = Extract<TraceEvent, { type: K }>;

/** Field names per event type, for the unknown-field warning (pydantic ignores extra fields). */
export const EVENT_FIELDS = Object.fromEntries(
  EVENT_TYPES.map((t) => [t, new Set(Object.keys(EVENT_SCHEMAS[t].shape))]),
) as unknown as Record<EventType, ReadonlySet<string>>;
export const MESSAGE_FIELDS: ReadonlySet<string> = new Set(Object.keys(TraceMessageBody.shape));
