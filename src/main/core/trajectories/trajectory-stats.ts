import type { Dispatch, Trajectory } from '../../../shared/contract/entities/trajectory';

/** Python's len(): code points, so a CJK or emoji message counts as the model's text does. */
export const codePoints = (s: string) => s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

/** The grid's size columns: messages, tool calls made, and characters of message text and call arguments. */
export function countsOf(t: Pick<Trajectory, 'messages'>): { messages: number; toolCalls: number; chars: number } {
  let toolCalls = 0;
  let chars = 0;
  for (const m of t.messages) {
    chars += codePoints(m.content ?? '');
    if (m.role !== 'assistant') continue;
    toolCalls += m.tool_calls.length;
    for (const c of m.tool_calls) chars += codePoints(c.function.arguments);
  }
  return { messages: t.messages.length, toolCalls, chars };
}

/**
 * The dispatches a trajectory without traces implies, for the shared grader: each of the agent's
 * calls with its result — status 400 when the result is an error, else 200 — and the result's JSON
 * as the body when it is JSON. (Claw-Eval traces carry real dispatches and keep them.)
 */
export function dispatchesOfCalls(t: Pick<Trajectory, 'messages'>): Dispatch[] {
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const m of t.messages)
    if (m.role === 'tool') results.set(m.tool_call_id, { content: m.content, isError: m.is_error });
  const out: Dispatch[] = [];
  for (const m of t.messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls) {
      const r = results.get(c.id);
      if (!r) continue;
      let body: unknown = r.content;
      try {
        body = JSON.parse(r.content);
      } catch {
        // a plain-text result stays text
      }
      out.push({
        call_id: c.id,
        tool: c.function.name,
        endpoint: '',
        args: c.parsed_arguments ?? {},
        status: r.isError ? 400 : 200,
        body,
        latency_ms: 0,
      });
    }
  }
  return out;
}
