import { hash } from 'node:crypto';
import type { Episode } from '../agents/agent-loop';
import { dumpsCompactDefined, type PyValue } from '../py/pyjson';
import type { PreparedRow } from '../trajectories/import/prepare';
import { indexForSearch } from '../trajectories/search-text';
import { countsOf } from '../trajectories/trajectory-stats';
import { appRowScores } from '../trajectories/row-scores';
import { withoutKnownKeys } from '../lib/secrets/known-keys';

/** The Python-aware writer, compact, undefined keys left out (through JSON.stringify where that is the same). */
const dumps = (v: unknown) => dumpsCompactDefined(v as PyValue);
/** Stand-ins serialized as "\u0000tools" / "\u0000system": no string of a trajectory can hold a raw NUL. */
const TOOLS = '\u0000tools';
const SYSTEM = '\u0000system';

/**
 * Every trajectory of a task carries the same tool list and system prompt (a third of its JSON):
 * their JSON is written once per tools array (the agent loop shares one per task) and spliced in.
 */
const shared = new WeakMap<object, { tools: string; prompt: string; system: string }>();
export function trajectoryJson(t: Episode['trajectory']): string {
  const sys = t.messages[0];
  if (sys?.role !== 'system' || !t.tools.length) return dumps(t);
  let c = shared.get(t.tools);
  if (c?.prompt !== sys.content)
    shared.set(t.tools, (c = { tools: dumps(t.tools), prompt: sys.content, system: dumps(sys) }));
  const { tools, system } = c;
  const head = dumps({ ...t, tools: TOOLS, messages: [SYSTEM, ...t.messages.slice(1)] });
  return head.replace(dumps(TOOLS), () => tools).replace(dumps(SYSTEM), () => system);
}

/** The stored content hash of a run trajectory: sha256 of its JSON (the UTF-8 bytes of the text). */
export const contentHashOf = (json: string | Uint8Array) => hash('sha256', json, 'hex');
const utf8 = new TextEncoder();

/**
 * A finished episode as the row and body stored for it (built outside the write transaction).
 * The Trajectory is written with the Python-aware writer (2.0 stays 2.0). An episode that ended in
 * a model error after retries is stored invalid and ungraded, with its error: a resume re-runs it.
 * `forTransfer` (a helper thread's row): the JSON as UTF-8 bytes, to be transferred to the committing
 * thread rather than copied twice as a string (a run's JSON holds non-Latin-1 text: 2 bytes a char),
 * its contentHash left '' for that thread to fill in (withContentHash).
 */
export function episodeRow(
  e: Episode,
  o: { runId: number; collection: string; trial: number; agentLabel: string; forTransfer?: boolean },
): PreparedRow {
  const t = e.trajectory;
  // Configured endpoint keys never reach the body, its hash, its search text or its error (a server's echo).
  const json = withoutKnownKeys(trajectoryJson(t));
  const errored = e.stop === 'error';
  // The run's grade at run time is its score of record (migration 0018): later re-grades change only the app grade.
  const recorded = errored || !e.grade ? null : appRowScores(e.grade);
  return {
    taskId: t.task_id,
    traceId: t.trace?.trace_id ?? t.trajectory_id,
    contentHash: o.forTransfer ? '' : contentHashOf(json),
    model: t.model,
    agent: o.agentLabel,
    source: 'run',
    sourceFormat: 'studio',
    sourceTaskId: t.task_id,
    taskSource: null,
    sourceReward: recorded?.score ?? null,
    sourceCompletion: recorded?.completion ?? null,
    sourceSuccess: recorded?.passed ?? null,
    runId: o.runId,
    trial: o.trial,
    collection: o.collection,
    external: false,
    valid: !errored,
    counts: countsOf(t),
    tokens: t.end?.total_tokens ?? 0,
    durationMs: Math.round((t.end?.wall_time_s ?? 0) * 1000),
    error: e.error === null ? null : withoutKnownKeys(e.error),
    grade: errored ? null : e.grade,
    raw: null,
    contextId: null,
    file: null,
    line: null,
    trajectoryJson: o.forTransfer ? utf8.encode(json) : json,
    searchText: withoutKnownKeys(indexForSearch(t)),
    warnings: [],
  };
}

/** A row of episodeRow(…, { forTransfer: true }) with its content hash. */
export function withContentHash(row: PreparedRow): PreparedRow {
  if (!row.contentHash) row.contentHash = contentHashOf(row.trajectoryJson ?? '');
  return row;
}
