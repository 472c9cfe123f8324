import type { Message, ToolCall } from '../../../../shared/contract/entities/trajectory';
import { isObj, RecordError, type Obj } from './record-error';
import { parseJsonString } from './record-json';

/** A tool call as a source gives it: arguments as the raw string (verbatim) or as an object. */
export type SourceCall = {
  id: string | null;
  name: string;
  /** The raw string the model emitted, when the source has it. */
  rawArguments: string | null;
  /** The arguments as an object, when the source gives them so (τ²-bench, Claw-Eval). */
  objectArguments: Obj | null;
  requestor?: 'assistant' | 'user';
};

type Pending = { call: ToolCall; original: string | null; answered: boolean; messageIndex: number };

/**
 * Message text as formats.md §1.1 stores it: strings stay; arrays of parts are flattened, text parts joined by "\n".
 */
export function flattenContent(v: unknown, field: string): { text: string | null; parts: unknown[] | null } {
  if (v === undefined || v === null) return { text: null, parts: null };
  if (typeof v === 'string') return { text: v, parts: null };
  if (!Array.isArray(v)) throw new RecordError(field, 'must be a string, null or an array of content parts');
  const texts: string[] = [];
  const others: unknown[] = [];
  v.forEach((p, i) => {
    if (typeof p === 'string') texts.push(p);
    else if (isObj(p) && p.type === 'text' && typeof p.text === 'string') texts.push(p.text);
    else if (isObj(p)) others.push(p);
    else throw new RecordError(`${field}[${i}]`, 'a content part must be an object or a string');
  });
  return { text: texts.length ? texts.join('\n') : others.length ? null : '', parts: others.length ? others : null };
}

/** The simulator's control tokens (formats.md §1.4), kept verbatim in the text and named in `control`. */
export function controlOf(text: string | null): 'stop' | 'transfer' | 'out_of_scope' | null {
  if (!text) return null;
  if (text.includes('###STOP###')) return 'stop';
  if (text.includes('###TRANSFER###')) return 'transfer';
  if (text.includes('###OUT-OF-SCOPE###')) return 'out_of_scope';
  return null;
}

/**
 * Builds canonical messages (formats.md §1) from any source: call ids made unique within the
 * trajectory (the first keeps its id, later reuses become `id#2`, `id#3`, originals in
 * meta.source_ids), every tool message paired with a call of the nearest preceding message that
 * made calls — by id among that message's unanswered calls (never by id across the trajectory:
 * τ-bench reuses ids across turns), or by position when the source gives no id — and named after it.
 */
export class Conversation {
  readonly messages: Message[] = [];
  private readonly used = new Map<string, number>();
  private pending: Pending[] = [];
  private synthesized = 0;
  /** Calls left without a result before a later call was made (the last message's calls may go unanswered). */
  unanswered = 0;

  system(content: string, field: string, meta?: Obj): void {
    if (this.messages.length)
      throw new RecordError(field, 'misplaced_system: a system message may only open the conversation');
    this.messages.push({ role: 'system', content, ...(meta ? { meta } : {}) });
  }

  /** A user message; `calls` are the simulated user's own (dual control), requestor "user". */
  user(content: string | null, origin: 'task' | 'simulated_user' | 'human', meta?: Obj, calls?: SourceCall[]): void {
    const control = controlOf(content);
    const m: Obj = { ...(meta ?? {}) };
    const toolCalls = calls?.length
      ? this.calls(
          calls.map((c) => ({ ...c, requestor: 'user' })),
          'user',
          m,
        )
      : null;
    this.messages.push({
      role: 'user',
      content,
      origin,
      ...(control ? { control } : {}),
      ...(toolCalls ? { tool_calls: toolCalls } : {}),
      ...(Object.keys(m).length ? { meta: m } : {}),
    });
  }

  assistant(content: string | null, reasoning: string | null, calls: SourceCall[], field: string, meta?: Obj): void {
    const m: Obj = { ...(meta ?? {}) };
    const toolCalls = this.calls(calls, field, m);
    this.messages.push({
      role: 'assistant',
      content,
      reasoning,
      tool_calls: toolCalls,
      ...(Object.keys(m).length ? { meta: m } : {}),
    });
  }

  /** Unique ids, parsed arguments; the calls become the ones tool results answer next. */
  private calls(calls: SourceCall[], field: string, meta: Obj): ToolCall[] {
    const sourceIds: Record<string, string> = {};
    const argErrors: Record<string, string> = {};
    const toolCalls = calls.map((c, i) => {
      const original = c.id ? c.id : null;
      const id = this.uniqueId(original);
      if (original !== null && id !== original) sourceIds[id] = original;
      return this.toolCall(c, id, `${field}.tool_calls[${i}]`, argErrors);
    });
    if (Object.keys(sourceIds).length) meta.source_ids = sourceIds;
    if (Object.keys(argErrors).length) meta.arguments_errors = argErrors;
    if (toolCalls.length) {
      this.unanswered += this.pending.filter((p) => !p.answered).length;
      this.pending = toolCalls.map((call, i) => ({
        call,
        original: calls[i]!.id ?? null,
        answered: false,
        messageIndex: this.messages.length,
      }));
    }
    return toolCalls;
  }

  /** A tool result; `id` null pairs it with the next unanswered call in order. */
  tool(content: string, o: { id: string | null; name: string | null; isError: boolean; field: string; meta?: Obj }) {
    const open = this.pending.filter((p) => !p.answered);
    const p =
      o.id === null || o.id === ''
        ? open[0]
        : (open.find((x) => x.original === o.id) ?? open.find((x) => x.call.id === o.id));
    if (!p) {
      const why =
        o.id === null || o.id === ''
          ? 'a tool result with no call left to answer (every call of the preceding assistant message has its result)'
          : `a tool result for call ${JSON.stringify(o.id)}, which the preceding assistant message did not make ` +
            `(or was answered already)`;
      throw new RecordError(o.field, why);
    }
    p.answered = true;
    const meta: Obj = { ...(o.meta ?? {}) };
    if (o.name !== null && o.name !== p.call.function.name) meta.source_name = o.name;
    if (p.call.requestor === 'user') meta.requestor = 'user';
    this.messages.push({
      role: 'tool',
      tool_call_id: p.call.id,
      name: p.call.function.name,
      content,
      is_error: o.isError,
      ...(Object.keys(meta).length ? { meta } : {}),
    });
  }

  /** True when every call has its result, but those of the last assistant message (formats.md §1.7). */
  get fullyAnswered(): boolean {
    const open = this.pending.some((p) => !p.answered);
    let last = -1;
    for (let i = this.messages.length - 1; i >= 0 && last < 0; i--)
      if (this.messages[i]!.role === 'assistant') last = i;
    return this.unanswered === 0 && (!open || this.pending[0]!.messageIndex === last);
  }

  private uniqueId(original: string | null): string {
    if (original === null) {
      let id: string;
      do id = `call_${this.synthesized++}`;
      while (this.used.has(id));
      this.used.set(id, 1);
      return id;
    }
    const n = (this.used.get(original) ?? 0) + 1;
    this.used.set(original, n);
    if (n === 1) return original;
    let id = `${original}#${n}`;
    while (this.used.has(id)) id = `${id}#`;
    this.used.set(id, 1);
    return id;
  }

  private toolCall(c: SourceCall, id: string, field: string, errors: Record<string, string>): ToolCall {
    let parsed: Obj | null = c.objectArguments;
    let raw = c.rawArguments;
    let origin: ToolCall['arguments_origin'] = 'verbatim';
    if (raw === null) {
      if (parsed === null) throw new RecordError(`${field}.arguments`, 'missing');
      raw = JSON.stringify(parsed);
      origin = 'serialized';
    } else if (parsed === null) {
      let v: unknown;
      try {
        v = parseJsonString(raw, `${field}.function.arguments`);
      } catch (err) {
        if (err instanceof RecordError) throw err;
        errors[id] = `arguments are not valid JSON: ${(err as Error).message}`;
      }
      if (v !== undefined) {
        if (isObj(v)) parsed = v;
        else errors[id] = `arguments are JSON but not an object (${Array.isArray(v) ? 'an array' : typeof v})`;
      }
    }
    return {
      id,
      type: 'function',
      function: { name: c.name, arguments: raw },
      parsed_arguments: parsed,
      arguments_origin: origin,
      requestor: c.requestor ?? 'assistant',
    };
  }
}
