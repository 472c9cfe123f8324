import type { Evidence } from '../../../../shared/contract/entities/checks';
import { callLocations } from '../../../../shared/contract/entities/call-locations';
import type { Dispatch, Trajectory } from '../../../../shared/contract/entities/trajectory';

/** DOM ids of what evidence points at: a message, a tool call in a message, an audit record, a bare dispatch. */
export const messageAnchor = (i: number) => `msg-${i}`;
export const callAnchor = (message: number, callId: string) => `call-${message}-${callId}`;
export const auditAnchor = (service: string, key: string, i: number) => `audit-${service}-${key}-${i}`;
export const dispatchAnchor = (i: number) => `dispatch-${i}`;

/** Where one piece of evidence is shown in the viewer; null for "none" and "judge" (shown in the grade panel). */
export function anchorOf(e: Evidence): string | null {
  switch (e.kind) {
    case 'message':
      return messageAnchor(e.index);
    case 'dispatch':
      return e.message !== undefined && e.call_id !== undefined
        ? callAnchor(e.message, e.call_id)
        : dispatchAnchor(e.index);
    case 'audit':
      return auditAnchor(e.service, e.action_key, e.index);
    case 'none':
    case 'judge':
      return null;
  }
}

/** A short label for an evidence chip. */
export function evidenceLabel(e: Evidence): string {
  switch (e.kind) {
    case 'message':
      return `message #${e.index}`;
    case 'dispatch':
      return `${e.tool} ${e.status}${e.message !== undefined ? ` · #${e.message}` : ''}`;
    case 'audit':
      return `${e.service}.${e.action_key}[${e.index}]`;
    case 'none':
      return e.reason;
    case 'judge':
      return `judge ${e.model}: ${e.score ?? 'no score'}`;
  }
}

/**
 * Each tool call's dispatch (status, endpoint) keyed by its anchor, paired the way the grader
 * pairs them (call-locations.ts); dispatches no call names are listed apart.
 */
export function dispatchesByCall(t: Pick<Trajectory, 'messages' | 'dispatches'>): {
  byCall: Map<string, Dispatch & { index: number }>;
  loose: (Dispatch & { index: number })[];
} {
  const at = callLocations(t);
  const byCall = new Map<string, Dispatch & { index: number }>();
  const loose: (Dispatch & { index: number })[] = [];
  t.dispatches.forEach((d, index) => {
    const l = at[index];
    if (l) byCall.set(callAnchor(l.message, l.call_id), { ...d, index });
    else loose.push({ ...d, index });
  });
  return { byCall, loose };
}

/** The last audit snapshot of each service (what the grader reads), minus the `calls` log. */
export function finalAudits(t: Pick<Trajectory, 'audits'>): { service: string; keys: [string, unknown[]][] }[] {
  const last = new Map<string, Record<string, unknown>>();
  for (const a of t.audits) last.set(a.service, a.data);
  return [...last].map(([service, data]) => ({
    service,
    keys: Object.entries(data)
      .filter(([k]) => k !== 'calls')
      .map(([k, v]) => [k, Array.isArray(v) ? v : [v]] as [string, unknown[]]),
  }));
}

/** Tool-call arguments for reading: pretty JSON when they parse, else the raw text as the model wrote it. */
export function prettyArgs(raw: string): { text: string; valid: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(raw), null, 2), valid: true };
  } catch {
    return { text: raw, valid: false };
  }
}

/** A tool result for reading: pretty JSON when it is JSON, else its text. */
export function prettyResult(content: string): string {
  const s = content.trim();
  if (!s.startsWith('{') && !s.startsWith('[')) return content;
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return content;
  }
}
