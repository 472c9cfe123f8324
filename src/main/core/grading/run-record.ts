import { callLocations } from '../../../shared/contract/entities/call-locations';
import type { Trajectory } from '../../../shared/contract/entities/trajectory';
import type { PyObject } from '../py/pyjson';
import { runRecordFrom, type RunRecord } from './grade';
import { formatConversation } from './judge/judge-inputs';

/** load_trace's audit_data: service → audit JSON, the last snapshot of a service winning. */
export function lastAudits(t: Pick<Trajectory, 'audits'>): Record<string, PyObject> {
  const out: Record<string, PyObject> = {};
  for (const a of t.audits) out[a.service] = a.data as PyObject;
  return out;
}

/**
 * What the shared grader reads from a trajectory: the dispatches (tool, request body, status; for
 * evidence, the call id and the message that made the call), the final text = the text of the last
 * assistant message (its index is the evidence), and the audits (the last snapshot per service,
 * minus `calls`).
 */
export function runRecordOf(t: Pick<Trajectory, 'dispatches' | 'messages' | 'audits'>): RunRecord {
  let idx = -1;
  for (let i = t.messages.length - 1; i >= 0; i--) {
    if (t.messages[i]!.role === 'assistant') {
      idx = i;
      break;
    }
  }
  const at = callLocations(t);
  const dispatches = t.dispatches.map((d, i) => ({
    tool: d.tool,
    args: d.args,
    status: d.status,
    ...(at[i] ? { call_id: at[i].call_id, message: at[i].message } : {}),
  }));
  const final = idx >= 0 ? (t.messages[idx]!.content ?? '') : '';
  // Every assistant message's text: upstream's safety rules on output search them all (_get_all_assistant_text).
  const assistantTexts = t.messages.flatMap((m, index) =>
    m.role === 'assistant' && typeof m.content === 'string' && m.content ? [{ index, text: m.content }] : [],
  );
  return {
    ...runRecordFrom(
      dispatches,
      lastAudits(t),
      final as string,
      idx >= 0 ? idx : undefined,
      formatConversation(t.messages),
    ),
    assistantTexts,
  };
}
