/**
 * The chat-completions shapes the model client speaks (OpenAI's wire format, narrowed to what the
 * generator, the agent loop, the simulated user and the LLM judge use). Tool-call arguments stay
 * the JSON *string* the model wrote: a malformed one is data to record, parse with
 * parseToolArguments, and answer as a tool error — never something to throw on.
 */
export type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool offered to the model (TaskSpec tools map to this: name, description, input_schema → parameters). */
export type ToolSpec = {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
};

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export type ChatRequest = {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  /** Ask for a JSON object (`response_format: json_object`); only where the server supports it. */
  jsonMode?: boolean;
  /** Overrides of the endpoint's defaults. */
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** Per-attempt timeout, ms (default: the endpoint's). */
  timeoutMs?: number;
  /** Aborts at once: during a request and during a wait between attempts. */
  signal?: AbortSignal;
};

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/**
 * One HTTP attempt: its status (null for a transport error), what went wrong, how long it took and the wait before it.
 */
export type Attempt = {
  attempt: number;
  status: number | null;
  error: string | null;
  latency_ms: number;
  waited_ms: number;
};

export type AssistantMessage = {
  role: 'assistant';
  content: string | null;
  tool_calls: ToolCall[];
  /** Thinking models' reasoning (`reasoning_content`, or OpenRouter's `reasoning`); absent when none. */
  reasoning?: string;
};

export type ChatResult = {
  message: AssistantMessage;
  finishReason: string | null;
  /** As the server reported it; null when it reports none. */
  usage: Usage | null;
  /** From the first attempt's start to the answer, waits included, ms. */
  latencyMs: number;
  attempts: Attempt[];
  /** The model the server says answered. */
  model: string;
  endpoint: string;
};

/** A tool call's arguments parsed: an object, or why not (models do write broken JSON). */
export function parseToolArguments(
  call: ToolCall,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const raw = call.function.arguments.trim();
  if (raw === '') return { ok: true, value: {} };
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return { ok: true, value: v as Record<string, unknown> };
    return { ok: false, error: `arguments of ${call.function.name} are not a JSON object` };
  } catch (err) {
    return { ok: false, error: `arguments of ${call.function.name} are not valid JSON: ${(err as Error).message}` };
  }
}
