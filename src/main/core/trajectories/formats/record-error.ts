/** A record that cannot become a trajectory: the field (a path like `messages[3].content`) and why. */
export class RecordError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(field ? `${field}: ${message}` : message);
  }
}

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

export function obj(v: unknown, field: string): Obj {
  if (!isObj(v)) throw new RecordError(field, `must be an object, not ${kind(v)}`);
  return v;
}

export function arr(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) throw new RecordError(field, `must be an array, not ${kind(v)}`);
  return v;
}

export function str(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new RecordError(field, `must be a string, not ${kind(v)}`);
  return v;
}

export function optStr(v: unknown, field: string): string | null {
  return v === undefined || v === null ? null : str(v, field);
}

/** A task id as sources write it: a string, or an integer (τ-bench). */
export function taskIdOf(v: unknown, field: string): string {
  if (typeof v === 'string' && v.length) return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  throw new RecordError(field, `must be a non-empty string or an integer, not ${kind(v)}`);
}

/** A trial number: an integer ≥ 0 (a numeric string is accepted); null when absent. */
export function trialOf(v: unknown, field: string): number | null {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n;
  throw new RecordError(field, `must be an integer ≥ 0, not ${JSON.stringify(v)}`);
}

/**
 * A reward as formats.md §2.5 coerces it: booleans → 1/0, numeric strings → numbers, null or
 * missing → unscored; anything else is refused (bad_reward). Finite numbers are kept exactly as
 * given: not every harness's reward is 0/1 or even in [0, 1].
 */
export function rewardOf(v: unknown, field: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n === 'number' && Number.isFinite(n)) return n;
  throw new RecordError(field, `bad_reward: must be a number, a numeric string or a boolean, not ${JSON.stringify(v)}`);
}

/** τ-bench's and τ²-bench's success rule (upstream is_successful): the reward within 1e-6 of 1. */
export const rewardSuccess = (reward: number | null): boolean | null =>
  reward === null ? null : Math.abs(reward - 1) <= 1e-6;
