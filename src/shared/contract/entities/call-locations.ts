import type { Trajectory } from './trajectory';

/** Where a dispatch's call sits in the conversation: the call id and the message that made it. */
export type CallLocation = { call_id: string; message: number } | null;

/**
 * For each dispatch, the assistant (or user) message whose tool call it answered. Call ids can be
 * reused within a trajectory (formats.md: real-data quirks), so the n-th dispatch of an id is paired
 * with the n-th call of that id, in conversation order. A dispatch no call names (a trace cut
 * short) gets null: the viewer then shows the dispatch by itself.
 */
export function callLocations(t: Pick<Trajectory, 'messages' | 'dispatches'>): CallLocation[] {
  const calls = new Map<string, number[]>();
  t.messages.forEach((m, i) => {
    const list = m.role === 'assistant' || m.role === 'user' ? (m.tool_calls ?? []) : [];
    for (const c of list) {
      const at = calls.get(c.id);
      if (at) at.push(i);
      else calls.set(c.id, [i]);
    }
  });
  const used = new Map<string, number>();
  return t.dispatches.map((d) => {
    const at = used.get(d.call_id) ?? 0;
    used.set(d.call_id, at + 1);
    const message = calls.get(d.call_id)?.[at];
    return message === undefined ? null : { call_id: d.call_id, message };
  });
}
