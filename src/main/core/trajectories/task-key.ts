/**
 * A task's identity for records of a benchmark whose task ids are per domain (issues 17, 19).
 *
 * τ-bench numbers its tasks 0, 1, 2… in every domain, and τ²-bench's ids ("0", "13"…) are per domain
 * too: airline task 12, retail task 12 and τ²'s airline task 12 are three tasks. Their records are
 * keyed `<benchmark>/<domain>/<source task id>` (`tau-bench/airline/12`, `tau2/retail/12`) — the
 * trajectory ids of formats.md ("<source>/<domain>/<task_id>/<trial>") without the trial — and the id
 * the source gave stays in `source_task_id`. Workspace task ids never hold a '/' (TaskSpec's id
 * pattern), so a key never names a workspace task; records of other sources (Claw-Eval traces,
 * messages JSONL, generated runs) keep their ids: those name workspace tasks.
 */

/** The benchmarks whose task ids are qualified, as their source formats name them. */
export type KeyedBenchmark = 'tau-bench' | 'tau2';

/** `<benchmark>/<domain>`; a domain the source does not name (or names oddly) is `unknown`. */
export function taskSourceOf(benchmark: KeyedBenchmark, domain: unknown): string {
  return `${benchmark}/${typeof domain === 'string' && domain !== '' ? domain : 'unknown'}`;
}

/** The task id a record is stored under: the source's id, qualified by its task source when it has one. */
export const taskKeyOf = (taskSource: string | null, sourceTaskId: string): string =>
  taskSource === null ? sourceTaskId : `${taskSource}/${sourceTaskId}`;
