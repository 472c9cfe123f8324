import type { GradeResult } from '../../../../shared/contract/entities/checks';
import { grade, runRecordFrom } from '../../grading/grade';
import type { Environment } from '../../services/environment';
import type { PyValue } from '../../py/pyjson';
import { freshEnvironment, type ExportTask } from '../export-task';
import { stateDigest } from './anchor-states';

export type TrivialRunName = 'empty' | 'prompt_echo' | 'reads_only';

export type TrivialRun = {
  run: TrivialRunName;
  completion: number;
  score: number;
  passed: boolean;
  /** Checks this run meets in full, and those it meets in part. */
  met: string[];
  partial: string[];
};

export type TrivialReport = {
  task_id: string;
  runs: TrivialRun[];
  /** reads_only: which reference-plan steps changed the environment's state (left out) and which did not. */
  plan: { writes: number[]; reads: number[] } | null;
  /** Why reads_only was not run (no reference plan, the environment cannot be built…). */
  skipped?: string;
};

/** Audit lists are live in the services: copy them so later calls do not change a graded run. */
const auditCopy = (env: Environment) =>
  Object.fromEntries(
    Object.entries(env.audits()).map(([s, a]) => [
      s,
      Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v])),
    ]),
  );

const summarise = (run: TrivialRunName, g: GradeResult): TrivialRun => ({
  run,
  completion: g.completion,
  score: g.score,
  passed: g.passed,
  met: g.checks.filter((c) => c.score !== null && c.score >= 1).map((c) => c.id),
  partial: g.checks.filter((c) => c.score !== null && c.score > 0 && c.score < 1).map((c) => c.id),
});

/**
 * What a task gives for doing (almost) nothing, graded by the shared grader in fresh environments:
 *
 * - empty: no call, no answer;
 * - prompt_echo: no call, the request text itself as the answer (final_text checks whose targets the
 *   request already holds);
 * - reads_only: the reference plan minus its writes — a step is a write when it changes the
 *   environment's state (records or audit action lists, `calls` aside), found by running the plan
 *   once and comparing state digests around each step — and no answer.
 *
 * A check any of these meets cannot tell an agent's work from its absence.
 */
export function trivialRuns(task: ExportTask, clock: Date): TrivialReport {
  const { spec } = task;
  const out: TrivialReport = { task_id: spec.task_id, runs: [], plan: null };
  let env: Environment;
  try {
    env = freshEnvironment(task, clock);
  } catch (err) {
    return { ...out, skipped: `the environment cannot be built: ${(err as Error).message}` };
  }
  const fresh = auditCopy(env);
  out.runs.push(summarise('empty', grade(spec, runRecordFrom([], fresh, ''))));
  out.runs.push(summarise('prompt_echo', grade(spec, runRecordFrom([], fresh, spec.prompt.text, 0))));
  const plan = spec.reference_plan;
  if (!plan?.length) return { ...out, skipped: 'no reference plan: the reads-only run needs one' };
  const writes: number[] = [];
  const reads: number[] = [];
  let before = stateDigest(env);
  plan.forEach((step, i) => {
    env.call(step.tool, step.args as PyValue);
    const after = stateDigest(env);
    (after === before ? reads : writes).push(i);
    before = after;
  });
  const probe = freshEnvironment(task, clock);
  for (const i of reads) probe.call(plan[i]!.tool, plan[i]!.args as PyValue);
  out.runs.push(summarise('reads_only', grade(spec, runRecordFrom(probe.dispatches.slice(), auditCopy(probe), ''))));
  out.plan = { writes, reads };
  return out;
}
