import { createHash } from 'node:crypto';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { Environment } from '../../services/environment';
import { dumpsCompact, type PyObject, type PyValue } from '../../py/pyjson';

/**
 * GiGPO's anchor states, defined from our environments (formats.md §4.4 [ours]):
 *
 *   key(step t) = sha256( state digest before the turn ‖ observation before the turn ), 16 hex chars
 *
 * - state digest: every service's live state (records after the rollout's edits so far) and its
 *   audit action lists (drafts, sent_messages, updated_tickets…; `calls` left out, so reads that
 *   change nothing leave the state as it was), in the task's service order;
 * - observation: what the agent saw since its previous turn — the tool results and user messages
 *   between the two assistant messages, each as `role:name:content`; the first turn's observation
 *   is "" (every rollout of a task starts from the same initial state, whatever its system prompt).
 *
 * The states come from replaying the rollout's recorded tool calls, in order, in a fresh
 * environment of the task (same fixtures, same pinned clock): the environments are deterministic,
 * so equal call histories give equal states. `anchorKey: 'state'` drops the observation.
 */
export type AnchorKey = 'state+observation' | 'state';

export type StepAnchors = {
  /** Index in trajectory.messages of each step (assistant turn). */
  messageIndexes: number[];
  keys: string[];
  /** The first replayed call whose status differs from the recorded one (the rollout ran elsewhere). */
  diverged: { step: number; tool: string; recorded: number; replayed: number } | null;
  /** Recorded dispatches no assistant tool call claims (not replayed). */
  unmatched: number;
};

/** Digest of the environment's state: services' records and audit action lists. */
export function stateDigest(env: Environment): string {
  const h = createHash('sha256');
  for (const [id, inst] of env.services) {
    const audit = inst.audit();
    const actions: PyObject = {};
    for (const k of Object.keys(audit)) if (k !== 'calls') actions[k] = audit[k]!;
    h.update(id)
      .update('\0')
      .update(dumpsCompact(inst.snapshot() as PyValue))
      .update('\0')
      .update(dumpsCompact(actions));
    h.update('\0');
  }
  return h.digest('hex');
}

const keyOf = (digest: string, observation: string | null) =>
  createHash('sha256')
    .update(digest)
    .update('\0')
    .update(observation ?? '')
    .digest('hex')
    .slice(0, 16);

export function anchorKeys(
  t: Pick<Trajectory, 'messages' | 'dispatches'>,
  env: Environment,
  anchor: AnchorKey,
): StepAnchors {
  const used = new Array<boolean>(t.dispatches.length).fill(false);
  const out: StepAnchors = { messageIndexes: [], keys: [], diverged: null, unmatched: 0 };
  let seen: string[] = [];
  let first = true;
  t.messages.forEach((m, mi) => {
    if (m.role !== 'assistant') {
      if (m.role === 'tool') seen.push(`tool:${m.name}:${m.content}`);
      else if (m.role === 'user') seen.push(`user::${m.content ?? ''}`);
      return;
    }
    const obs = first || anchor === 'state' ? null : seen.join('\n');
    out.messageIndexes.push(mi);
    out.keys.push(keyOf(stateDigest(env), obs));
    first = false;
    seen = [];
    for (const call of m.tool_calls) {
      const k = t.dispatches.findIndex((d, i) => !used[i] && d.call_id === call.id);
      if (k < 0) continue;
      used[k] = true;
      const d = t.dispatches[k]!;
      const replayed = env.call(d.tool, d.args as PyValue);
      if (!out.diverged && replayed.status !== d.status)
        out.diverged = { step: out.keys.length - 1, tool: d.tool, recorded: d.status, replayed: replayed.status };
    }
  });
  out.unmatched = used.filter((u) => !u).length;
  return out;
}
