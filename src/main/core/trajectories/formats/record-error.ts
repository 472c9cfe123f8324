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

/** A number as text: decimal only ("0x1", "1_000", "Infinity" and "NaN" are not numbers a reward is written as). */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * A reward or score as formats.md §2.5 coerces it — booleans → 1/0, decimal strings → numbers, null
 * or missing → unscored — and §1.7 bounds it: a finite number in [0, 1]. Anything else refuses the
 * record (bad_reward) naming the value. Refused rather than stored on a scale of its own: the pass
 * threshold (0.75), the pools' minimum rewards and every mean assume [0, 1], so a reward of 7 made
 * a report say "mean 7.0000, passed 3/3". τ-bench and τ²-bench define their rewards on [0, 1]; a
 * messages row on another scale is rescaled by whoever knows the scale, before importing.
 *
 * `stored`: the record is read back from the workspace (trajectories.get, exports), where rows
 * imported before rewards were bounded keep the value they were stored with (their row holds it too):
 * the rules then are those of that time, finite numbers of any size, so such a row still opens.
 */
export function rewardOf(v: unknown, field: string, o: { stored?: boolean } = {}): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const numeric = typeof v === 'string' && (o.stored ? v.trim() !== '' : DECIMAL.test(v));
  const n = numeric ? Number(v) : v;
  if (typeof n === 'number' && !Number.isFinite(n) && !Number.isNaN(n))
    throw new RecordError(field, `bad_reward: ${v} (beyond ±1.8e308) is not a finite number in [0, 1]`);
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new RecordError(
      field,
      `bad_reward: must be a number in [0, 1], a decimal string or a boolean, not ${JSON.stringify(v)}`,
    );
  if (!o.stored && (n < 0 || n > 1))
    throw new RecordError(
      field,
      `bad_reward: ${JSON.stringify(v)} is outside [0, 1], the range rewards and scores are kept in ` +
        '(rescale them before importing)',
    );
  return n;
}

/** τ-bench's and τ²-bench's success rule (upstream is_successful): the reward within 1e-6 of 1. */
export const rewardSuccess = (reward: number | null): boolean | null =>
  reward === null ? null : Math.abs(reward - 1) <= 1e-6;
