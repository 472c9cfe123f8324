import type { GradeResult } from '../../../shared/contract/entities/checks';
import type {
  AuditSnapshot,
  DimensionScores,
  Grading,
  RunEnd,
  ToolCall,
  Trajectory,
} from '../../../shared/contract/entities/trajectory';
import { pyRound } from '../lib/py-round';
import type { Environment } from '../services/environment';
import { isObject, parsePyJson, type PyObject } from '../py/pyjson';
import type { AgentToolCall } from './agent-types';

/**
 * Pieces of a run's Trajectory in Claw-Eval's shapes (reference/claw-eval.md §8): the audit
 * snapshots read after the loop, trace_end (usage, timings, the user agent's rounds) and the
 * grading_result our shared grader gives.
 */
export type StopReason = 'no_tool_calls' | 'user_done' | 'max_rounds' | 'max_turns' | 'timeout' | 'error';

/** A stop as formats.md §1.5 termination. A limit hit is the policy's failure (valid); a model error is not. */
export const TERMINATION: Record<StopReason, NonNullable<Trajectory['termination']>> = {
  no_tool_calls: 'agent_stop',
  user_done: 'user_stop',
  max_rounds: 'agent_stop',
  max_turns: 'max_steps',
  timeout: 'max_steps',
  error: 'infra_error',
};

/** DimensionScores at pydantic's defaults, as trace_end carries them (the grading holds the real ones). */
export const DEFAULT_DIMENSIONS: DimensionScores = {
  completion: 0,
  robustness: 0,
  communication: 0,
  safety: 1,
  efficiency_turns: 0,
  efficiency_tokens: 0,
  efficiency_wall_time_s: 0,
};

/**
 * A tool call's arguments as Claw-Eval's provider reads them: json.loads, floats kept as floats
 * (PyFloat), and anything that is not a JSON object becomes {} — recorded here as the model's error.
 */
export function parseArguments(raw: string): { ok: true; value: PyObject } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    const v = parsePyJson(raw);
    if (isObject(v)) return { ok: true, value: v };
    return { ok: false, error: 'the arguments are JSON but not an object' };
  } catch (err) {
    return { ok: false, error: `the arguments are not valid JSON (${(err as Error).message})` };
  }
}

/** The canonical tool call (formats.md §1.2): raw arguments kept, parsed ones beside them (null when unparseable). */
export function canonicalCall(c: AgentToolCall, parsed: ReturnType<typeof parseArguments>): ToolCall {
  return {
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
    parsed_arguments: parsed.ok ? parsed.value : null,
    arguments_origin: c.origin,
    requestor: 'assistant',
  };
}

/** One audit snapshot per service, read after the loop (the environment is discarded after: no copy needed). */
export function auditSnapshots(env: Environment, timestamp: string): AuditSnapshot[] {
  return [...env.services].map(([id, inst]) => {
    const port = env.spec.services.find((s) => s.id === id)?.port ?? inst.def.port;
    return { service: id, url: `http://localhost:${port}/${id}/audit`, data: inst.audit(), meta: { timestamp } };
  });
}

export type Tally = {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  modelMs: number;
  toolMs: number;
  wallMs: number;
  rounds: number;
  maxRounds: number;
  userDone: boolean;
  failure: string | null;
};

export function runEnd(t: Tally, timestamp: string): RunEnd {
  const s = (ms: number) => pyRound(ms / 1000, 2);
  return {
    total_turns: t.turns,
    model_input_tokens: t.inputTokens,
    model_output_tokens: t.outputTokens,
    input_tokens: t.inputTokens,
    output_tokens: t.outputTokens,
    total_tokens: t.inputTokens + t.outputTokens,
    model_time_s: s(t.modelMs),
    tool_time_s: s(t.toolMs),
    other_time_s: s(Math.max(0, t.wallMs - t.modelMs - t.toolMs)),
    wall_time_s: s(t.wallMs),
    scores: DEFAULT_DIMENSIONS,
    task_score: 0,
    passed: false,
    failure_modes: t.failure ? [t.failure] : [],
    user_agent_rounds: t.rounds,
    user_agent_max_rounds: t.maxRounds,
    user_agent_done: t.userDone,
    meta: { timestamp },
  };
}

/** The shared grader's result as a Claw-Eval grading_result (communication and efficiency stay 0, as upstream's). */
export function gradingOf(taskId: string, g: GradeResult, t: Tally, timestamp: string): Grading {
  return {
    task_id: taskId,
    scores: { ...DEFAULT_DIMENSIONS, completion: g.completion, robustness: g.robustness, safety: g.safety },
    task_score: g.score,
    passed: g.passed,
    failure_modes: [],
    judge_calls: [],
    user_agent_meta: t.rounds > 0 ? { rounds_used: t.rounds, max_rounds: t.maxRounds, done_reached: t.userDone } : {},
    meta: { timestamp },
  };
}
