import type { SourceFormat, Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { Conversation } from './conversation';
import { isObj, type Obj } from './record-error';

/** What a row needs that the canonical Trajectory does not hold in one place. */
export type RowHints = {
  /** The source's id of this trajectory (trace id, simulation id, or <format>/<domain>/<task>/<trial>). */
  traceId: string;
  sourceTaskId: string;
  /**
   * The benchmark and domain that qualify sourceTaskId (task-key.ts): `tau-bench/airline`, `tau2/retail`;
   * null for sources whose task ids are the workspace's.
   */
  taskSource: string | null;
  /** null: the source has no trial (the next free trial of the task in the collection is taken). */
  trial: number | null;
  reward: number | null;
  success: boolean | null;
  tokens: number | null;
  durationMs: number | null;
  error: string | null;
  /** The grader can use the tool calls: every call has its result (formats.md §1.7). */
  gradable: boolean;
};

export type Normalized = { trajectory: Trajectory; row: RowHints; warnings: string[] };

/**
 * Per file: its path, and what a τ²-bench results file holds besides simulations ({info, tasks…}).
 * `stored`: the record is read back from the workspace, not imported (see rewardOf).
 */
export type FormatContext = { file: string | null; header: Obj | null; stored?: boolean };

export type TrajectoryParts = {
  id: string;
  taskId: string;
  model: string;
  format: SourceFormat;
  file: string | null;
  tools: unknown[];
  conversation: Conversation;
  reward: number | null;
  scores?: Trajectory['scores'];
  termination: Trajectory['termination'];
  valid: boolean;
  invalidReason: string | null;
  metadata: Obj;
};

/** A canonical Trajectory of a source without traces (no dispatches, audits, media or gradings of its own). */
export function trajectoryOf(p: TrajectoryParts): Trajectory {
  return {
    trajectory_id: p.id,
    task_id: p.taskId,
    model: p.model,
    source: { format: p.format, file: p.file },
    trace: null,
    tools: p.tools.map(wrapTool),
    messages: p.conversation.messages,
    dispatches: [],
    audits: [],
    media: [],
    compactions: [],
    end: null,
    gradings: [],
    scores: p.scores ?? null,
    reward: p.reward,
    termination: p.termination,
    valid: p.valid,
    invalid_reason: p.invalidReason,
    metadata: p.metadata,
  };
}

/** Tool schemas are stored in the OpenAI wrapper form; the flat {name, description, parameters} form is wrapped. */
export function wrapTool(t: unknown): unknown {
  if (isObj(t) && t.type === 'function' && isObj(t.function)) return t;
  if (isObj(t) && typeof t.name === 'string') return { type: 'function', function: t };
  return t;
}

/** Sum of the usage of the assistant's messages (prompt + completion tokens); null when none carries usage. */
export function assistantTokens(t: Pick<Trajectory, 'messages'>): number | null {
  let n: number | null = null;
  for (const m of t.messages) {
    const u = m.role === 'assistant' ? m.meta?.usage : undefined;
    if (u) n = (n ?? 0) + u.prompt_tokens + u.completion_tokens;
  }
  return n;
}

/** A usage object of a source ({prompt_tokens, completion_tokens}), when it is one. */
export function usageOf(v: unknown): { prompt_tokens: number; completion_tokens: number } | undefined {
  if (!isObj(v)) return undefined;
  const p = v.prompt_tokens;
  const c = v.completion_tokens;
  return Number.isInteger(p) && Number.isInteger(c)
    ? { prompt_tokens: p as number, completion_tokens: c as number }
    : undefined;
}
