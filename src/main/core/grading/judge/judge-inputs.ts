/**
 * The texts Claw-Eval's graders hand the judge (graders/base.py at 9365e1a; reference/claw-eval.md §9.6), with the
 * same string formats, since they go to the judge verbatim.
 */

type TextMessage = { role: string; content: string | null };

/**
 * `format_conversation`: one `[ROLE]: text` line per message that has text. Upstream's messages are user and
 * assistant turns (tool results are user turns without text, the system prompt is never traced); ours keep tool
 * results as `tool` messages and may hold a system message, so both are left out to give the same transcript.
 */
export function formatConversation(messages: readonly TextMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    if (m.content) lines.push(`[${m.role.toUpperCase()}]: ${m.content}`);
  }
  return lines.join('\n');
}

/**
 * `summarize_actions(audit_data)`: per service with calls, `svc: N calls — ep1, ep2, …` (the audit's `calls`
 * list, in its order); "No audit data available." without audits, "No actions recorded." when none has a call.
 */
export function summarizeActions(audits: Readonly<Record<string, unknown>> | null | undefined): string {
  if (!audits || !Object.keys(audits).length) return 'No audit data available.';
  const parts: string[] = [];
  for (const [svc, data] of Object.entries(audits)) {
    const calls = (data as { calls?: unknown } | null)?.calls;
    if (!Array.isArray(calls) || !calls.length) continue;
    const endpoints = calls.map((c) => {
      const e = (c as { endpoint?: unknown } | null)?.endpoint;
      return e === undefined ? '?' : String(e);
    });
    parts.push(`${svc}: ${calls.length} calls — ${endpoints.join(', ')}`);
  }
  return parts.length ? parts.join('\n') : 'No actions recorded.';
}
