import { ATTEMPT_SET_COLUMNS } from '../../trajectories/attempt-set';
import type { LightTable } from './light-table';
import type { Verdicts } from './verdicts';

/**
 * The duplicate rule (§6.4), stated once with its two forms: records of the same task and trial within one
 * attempt set (trajectories/attempt-set.ts: one agent and model's run in a collection — never across models,
 * runs or collections) are one rollout stored twice. The later record wins; each earlier one is rejected naming
 * the record that follows it in its group. A record without a trial is never a duplicate, and records already
 * superseded (a whole collection's task at once, so a whole group) take no part.
 *
 * - `markDuplicates`: the JS form, over a LightTable (record sources other than the workspace: files, arrays);
 * - `laterDuplicateSql`: the SQL form, per workspace row, so an export keeps nothing per record (issue 17).
 *
 * test/export/duplicate-rule.test.ts runs both on the same records (built ones, the shipped corpus subset, and
 * the full corpora with FULL_DATA) and asserts the same verdicts. A change of rule changes both forms.
 */

/**
 * The JS form. Sorting record numbers by (key, order) puts each group side by side, with no map of keys per
 * record; the key is (attempt set, task, trial).
 */
export function markDuplicates(t: LightTable, v: Verdicts): void {
  const key = (a: number, b: number) =>
    t.attemptSetKey(a) - t.attemptSetKey(b) || t.taskKey(a) - t.taskKey(b) || t.trialOf(a)! - t.trialOf(b)!;
  let n = 0;
  const ids = new Uint32Array(t.size);
  for (let i = 0; i < t.size; i++) if (!v.has(i) && t.trialOf(i) !== null) ids[n++] = i;
  const sorted = ids.subarray(0, n).sort((a, b) => key(a, b) || a - b);
  for (let k = 1; k < n; k++) if (key(sorted[k - 1]!, sorted[k]!) === 0) v.set(sorted[k - 1]!, 'duplicate', sorted[k]!);
}

/**
 * The SQL form: for the trajectories row aliased `t`, the id of the next row (in storage order, the order records
 * are fed) of its attempt set with its task and trial — NULL when it is the last one, or has no trial. Rows are
 * fed whole groups at a time (the selection's filters — collections, the task's pool — are columns of the key or
 * of the task), so the next row of the group is the next fed one. Served by the index trajectories_collection_
 * task_trial (collection, task_id, trial): a few rows per group, whatever the workspace's size.
 */
export const laterDuplicateSql = (t: string): string => {
  const same = [...ATTEMPT_SET_COLUMNS, 'task_id'].map((c) => `d.${c} IS ${t}.${c}`).join(' AND ');
  // `=`, not IS: a null trial matches nothing.
  return `(SELECT min(d.id) FROM trajectories d WHERE ${same} AND d.trial = ${t}.trial AND d.id > ${t}.id)`;
};
