import type { GradeResult } from '../../../shared/contract/entities/checks';
import { grade, runRecordFrom, type RunRecord } from '../grading/grade';
import type { Dispatch, Environment } from '../services/environment';
import type { PyValue } from '../py/pyjson';
import type { ValidationInput } from './types';

/**
 * The runs grading consistency and solvability look at, made once per validation in one
 * environment: graded fresh (the empty run), then after the reference plan. Later probes (the
 * prohibited calls) continue in the same environment, so everything here is copied first.
 */
export type Runs =
  | { ok: false; error: string }
  | {
      ok: true;
      env: Environment;
      empty: GradeResult;
      /** Absent when the task has no reference plan (imports). */
      plan?: { dispatches: Dispatch[]; record: RunRecord; grade: GradeResult };
    };

/** Audit lists are live in the services; a copy keeps a grade's evidence indexes meaningful. */
const auditCopy = (env: Environment) =>
  Object.fromEntries(
    Object.entries(env.audits()).map(([s, a]) => [
      s,
      Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v])),
    ]),
  );

const cache = new WeakMap<ValidationInput, Runs>();

export function runs(input: ValidationInput): Runs {
  const hit = cache.get(input);
  if (hit) return hit;
  let out: Runs;
  try {
    const env = input.environment();
    const empty = grade(input.spec, runRecordFrom([], auditCopy(env)));
    out = { ok: true, env, empty };
    const plan = input.spec.reference_plan;
    if (plan) {
      for (const step of plan) env.call(step.tool, step.args as PyValue);
      const dispatches = env.dispatches.slice();
      // The plan's final answer is reference_final_text (final_text checks are graded on it).
      const record = runRecordFrom(
        dispatches,
        auditCopy(env),
        input.spec.reference_final_text ?? '',
        input.spec.reference_final_text !== undefined ? 0 : undefined,
      );
      out.plan = { dispatches, record, grade: grade(input.spec, record) };
    }
  } catch (err) {
    out = { ok: false, error: (err as Error).message };
  }
  cache.set(input, out);
  return out;
}
