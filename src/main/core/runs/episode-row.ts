import { createHash } from 'node:crypto';
import type { Episode } from '../agents/agent-loop';
import { dumpsPy, type PyValue } from '../services/pyjson';
import type { PreparedRow } from '../trajectories/import/prepare';
import { withoutUndefined } from '../trajectories/load-trajectory';
import { indexForSearch } from '../trajectories/search-text';
import { countsOf } from '../trajectories/trajectory-stats';

/**
 * A finished episode as the row and body stored for it (built outside the write transaction).
 * The Trajectory is written with the Python-aware writer (2.0 stays 2.0). An episode that ended in
 * a model error after retries is stored invalid and ungraded, with its error: a resume re-runs it.
 */
export function episodeRow(
  e: Episode,
  o: { runId: number; collection: string; trial: number; agentLabel: string },
): PreparedRow {
  const t = e.trajectory;
  const json = dumpsPy(withoutUndefined(t as unknown as PyValue), { itemSep: ',', keySep: ':' });
  const errored = e.stop === 'error';
  return {
    taskId: t.task_id,
    traceId: t.trace?.trace_id ?? t.trajectory_id,
    contentHash: createHash('sha256').update(json).digest('hex'),
    model: t.model,
    agent: o.agentLabel,
    source: 'run',
    sourceFormat: 'studio',
    sourceTaskId: t.task_id,
    sourceReward: null,
    sourceSuccess: null,
    runId: o.runId,
    trial: o.trial,
    collection: o.collection,
    external: false,
    valid: !errored,
    counts: countsOf(t),
    tokens: t.end?.total_tokens ?? 0,
    durationMs: Math.round((t.end?.wall_time_s ?? 0) * 1000),
    error: e.error,
    grade: errored ? null : e.grade,
    raw: null,
    contextId: null,
    file: null,
    line: null,
    trajectoryJson: json,
    searchText: indexForSearch(t),
  };
}
