import type { Attachment, Message, MessageMeta, Usage } from '../../../shared/contract/entities/trajectory';
import type { PyObject, PyValue } from '../py/pyjson';
import { dumpsPydantic } from './pydantic-json';
import type { ContentBlock, TraceMessageBody, Usage as TraceUsage } from './trace-events';

/** Claw-Eval's multi-turn user agent prefixes its replies with this (§8.3). */
export const USER_AGENT_MARKER = '[user_agent]';

const DEFAULT_USAGE = (u: TraceUsage) =>
  u.input_tokens === 0 &&
  u.output_tokens === 0 &&
  u.cached_input_tokens === undefined &&
  u.cache_creation_input_tokens === undefined &&
  u.cache_read_input_tokens === undefined;

export function usageFromTrace(u: TraceUsage): Usage | undefined {
  if (DEFAULT_USAGE(u)) return undefined;
  return compact({
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    cached_input_tokens: u.cached_input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens,
    cache_read_input_tokens: u.cache_read_input_tokens,
  });
}

export function usageToTrace(u: Usage | undefined): TraceUsage {
  if (!u) return { input_tokens: 0, output_tokens: 0 };
  return {
    input_tokens: u.prompt_tokens,
    output_tokens: u.completion_tokens,
    cached_input_tokens: u.cached_input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens,
    cache_read_input_tokens: u.cache_read_input_tokens,
  };
}

/** Drops keys whose value is undefined, so two equal messages deep-equal whatever path built them. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

const isMedia = (b: ContentBlock): b is Extract<ContentBlock, { type: 'image' | 'audio' | 'video' }> =>
  b.type === 'image' || b.type === 'audio' || b.type === 'video';
const textOf = (blocks: readonly { type: string; text?: string }[]) => {
  const t = blocks.filter((b) => b.type === 'text').map((b) => b.text!);
  return t.length ? t.join('\n') : null;
};

export type MessageContext = {
  seq: number | undefined;
  timestamp: string | undefined;
  usage: TraceUsage;
  /** tool_use id → tool name, of the calls made so far. */
  callNames: ReadonlyMap<string, string>;
  /** A tool_result for an id no earlier tool_use made. */
  onUnknownResult(id: string): void;
};

/**
 * One trace message → canonical messages (formats.md §2.4): assistant text blocks → content (joined
 * by "\n"), tool_use → tool_calls (input is parsed_arguments, arguments serialised); a user message's
 * tool_result blocks → one tool message each; image/audio/video → meta.attachments. Every message of
 * the group carries the event's seq and timestamp; usage, reasoning on a non-assistant message and,
 * when the canonical fields cannot reproduce the blocks, the blocks themselves go on the first.
 */
export function messagesFromTrace(m: TraceMessageBody, ctx: MessageContext): Message[] {
  const attachments: Attachment[] = m.content
    .filter(isMedia)
    .map((b) => ({ type: b.type, data: b.data, mime_type: b.mime_type, source_path: b.source_path }));
  const meta = (): MessageMeta =>
    compact({ timestamp: ctx.timestamp, trace: ctx.seq === undefined ? undefined : { seq: ctx.seq } });
  const withAttachments = (mm: MessageMeta) => (attachments.length ? { ...mm, attachments } : mm);
  const out: Message[] = [];
  if (m.role === 'assistant') {
    const tool_calls = m.content.flatMap((b) =>
      b.type === 'tool_use'
        ? [
            {
              id: b.id,
              type: 'function' as const,
              function: { name: b.name, arguments: dumpsPydantic(b.input) },
              parsed_arguments: b.input as Record<string, unknown>,
              arguments_origin: 'serialized' as const,
              requestor: 'assistant' as const,
            },
          ]
        : [],
    );
    out.push({
      role: 'assistant',
      content: textOf(m.content),
      reasoning: m.reasoning_content,
      tool_calls,
      meta: withAttachments(meta()),
    });
  } else if (m.role === 'system') {
    out.push({ role: 'system', content: textOf(m.content) ?? '', meta: meta() });
  } else {
    const results = m.content.filter((b) => b.type === 'tool_result');
    const others = m.content.filter((b) => b.type !== 'tool_result');
    const text = textOf(others);
    const user: Message = {
      role: 'user',
      content: text,
      origin: text?.startsWith(USER_AGENT_MARKER) ? 'simulated_user' : 'task',
      meta: withAttachments(meta()),
    };
    const tools: Message[] = results.map((b) => {
      const name = ctx.callNames.get(b.tool_use_id);
      if (name === undefined) ctx.onUnknownResult(b.tool_use_id);
      return {
        role: 'tool',
        tool_call_id: b.tool_use_id,
        name: name ?? '',
        content: textOf(b.content) ?? '',
        is_error: b.is_error,
        meta: meta(),
      };
    });
    // A user message of tool results only is the usual case; other blocks make a user message too.
    if (!results.length) out.push(user);
    else if (!others.length) out.push(...tools);
    else if (m.content[0]!.type === 'tool_result') out.push(...tools, user);
    else out.push(user, ...tools);
  }
  const first = out[0]!;
  const trace = { ...first.meta!.trace };
  if (m.role !== 'assistant' && m.reasoning_content !== null) trace.reasoning_content = m.reasoning_content;
  if (dumpsPydantic(renderBlocks(out) as unknown as PyValue) !== dumpsPydantic(m.content as unknown as PyValue))
    trace.blocks = m.content;
  first.meta = compact({
    ...first.meta!,
    usage: usageFromTrace(ctx.usage),
    trace: Object.keys(trace).length ? trace : undefined,
  });
  return out;
}

/** Canonical messages of one trace message → its content blocks, in order. */
export function renderBlocks(group: readonly Message[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const media = (m: Message) =>
    (m.meta?.attachments ?? []).map(
      (a): ContentBlock => ({ type: a.type, data: a.data, mime_type: a.mime_type, source_path: a.source_path }),
    );
  for (const m of group) {
    if (m.role === 'tool') {
      blocks.push({
        type: 'tool_result',
        tool_use_id: m.tool_call_id,
        content: [{ type: 'text', text: m.content }],
        is_error: m.is_error,
      });
      continue;
    }
    if (m.content !== null) blocks.push({ type: 'text', text: m.content });
    if (m.role === 'assistant')
      for (const c of m.tool_calls)
        blocks.push({
          type: 'tool_use',
          id: c.id,
          name: c.function.name,
          input: (c.parsed_arguments ?? {}) as PyObject,
        });
    blocks.push(...media(m));
  }
  return blocks;
}

/** The trace message role of a group of canonical messages. */
export const traceRole = (first: Message): TraceMessageBody['role'] =>
  first.role === 'assistant' ? 'assistant' : first.role === 'system' ? 'system' : 'user';

/** Messages without their meta, as text: for "are the canonical fields unchanged?" comparisons. */
export const fieldsKey = (group: readonly Message[]) =>
  dumpsPydantic(group.map(({ meta: _m, ...rest }) => rest) as unknown as PyValue);
