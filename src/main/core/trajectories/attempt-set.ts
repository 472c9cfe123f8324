/**
 * Which records can be duplicates of each other (issues 17, 18). formats.md §6.4, the paper's rule
 * and our reading of it:
 *
 *   "Dedup key: (task name, trial id) within one source lineage: the same agent or model, the same
 *   benchmark source. The paper dedups one teacher's collections; records of different models, runs
 *   or benchmarks are different attempts, never duplicates [ours]. When two records of one lineage
 *   share a key, the later import wins and the earlier one is reported as duplicate [ours for the tie
 *   rule]."
 *   "Replacement collections supersede earlier records for re-executed tasks. If a task appears in a
 *   collection marked as replacing earlier ones (supersedes_collections), all earlier records of that
 *   task are dropped. They are reported as superseded, not merged."
 *
 * So a lineage is a collection and the replacement collections that supersede it: across collections
 * the replacement rule acts (supersede.ts; the export's own pass in sft/preselect.ts), never dedup.
 * Within a collection, a record's attempt set is (collection, agent, model, run): one agent and model's
 * attempts in one run (an app run, or one import). Dedup by (task, trial) — the task key includes the
 * benchmark and domain (task-key.ts) — stays inside an attempt set: two runs of the same tasks, a base
 * and a fine-tuned model, two benchmarks are different attempts.
 *
 * Every place that dedups agrees with it:
 * - export (SFT: `attemptSet` on each record, sft/duplicate-rule.ts in JS and SQL; RL rollouts: rl-inputs.ts) by
 *   (attempt set, task, trial), the later stored record winning;
 * - a run stores one trajectory per (task, trial) (index trajectories_run_pair): one attempt set;
 * - import refuses only the same record again — its bytes, in the same collection, for the same
 *   source task and trial (index trajectories_dedup): a re-read is one attempt whatever run read it,
 *   and two distinct records are never dropped there. Sources without trials number their records
 *   per (collection, task), so they never share a key.
 * Residual: two files of one import in one collection (same-named files, or --collection) with the same
 * agent and model are one run; import them separately, or into collections of their own, to keep them apart.
 */

/** The trajectories columns that make a row's attempt set (run_id may be null: compare with IS). */
export const ATTEMPT_SET_COLUMNS = ['collection', 'agent', 'model', 'run_id'] as const;

/** The attempt set of a trajectory row (alias `t`) as SQL; GROUP BY it with task_id and trial. */
export const attemptSetSql = (t: string): string => ATTEMPT_SET_COLUMNS.map((c) => `${t}.${c}`).join(', ');

/** The same as one string (SftRecordMeta.attemptSet): equal exactly when the SQL columns are. */
export const attemptSetOf = (r: { collection: string; agent: string; model: string; run_id: number | null }): string =>
  JSON.stringify([r.collection, r.agent, r.model, r.run_id]);
