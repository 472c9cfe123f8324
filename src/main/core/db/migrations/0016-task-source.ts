import type { Db } from '../sqlite';

export const name = '0016-task-source';

const WHO = 'migration 0016-task-source';

/**
 * Task identity, per-record warnings (issues 17, 19; src/main/core/trajectories/task-key.ts).
 *
 * - trajectories.task_source: the benchmark and domain of a τ-bench / τ²-bench record
 *   (`tau-bench/airline`, `tau2/retail`); NULL for sources whose task ids are the workspace's. No
 *   index: a set filter of a few values reads the table in order, as source_format's does.
 * - Imported τ records are re-keyed `<task_source>/<source_task_id>`: their ids are per domain, and
 *   "12" of τ-bench airline, τ-bench retail and τ² airline had become one task (one curation row, one
 *   report line). Rows of an import that named a task (--task) keep it: they are graded against it.
 *   A τ record that was graded against a workspace task only because the ids were equal loses that
 *   grade (another task's checks), with a warning saying so.
 * - Curation follows: each new task id gets the decision (bucket, pool) of the id it had; a decision
 *   that several sources shared is kept on every one of them and logged as one curation batch per
 *   target (who: this migration); the log's earlier changes of a re-keyed id act on its new ids, so
 *   undo and redo still reach them. Statistics are recomputed at the next open (the update trigger
 *   listed the tasks in curation_dirty); supersession is recomputed here, by task.
 * - trajectories.warnings (their count) and trajectory_warnings (their texts, a row only for a
 *   trajectory that has some): what the reader and the grader warned of, kept with the record;
 *   run_files.warned counts them per file of an import. No index on the count: "has warnings" is a
 *   filter of few values (see above). A table of its own, not a column of trajectory_bodies: adding a
 *   column to a table with CHECK constraints makes SQLite check every row, and reading every body
 *   (their raw records overflow onto pages of their own) is most of a large workspace's file.
 * - (collection, task_id, trial) replaces (collection, task_id): the next free trial of a task in a
 *   collection (sources without trials) is read from the index, not from every row of the task.
 * - curation_grid gains task_source, the qualifier of a task id (what precedes its last '/').
 */
export function up(db: Db): void {
  db.exec(`
    ALTER TABLE trajectories ADD COLUMN task_source TEXT;
    ALTER TABLE trajectories ADD COLUMN warnings INTEGER NOT NULL DEFAULT 0 CHECK (warnings >= 0);
    CREATE TABLE trajectory_warnings (
      trajectory_id INTEGER PRIMARY KEY REFERENCES trajectories (id) ON DELETE CASCADE,
      texts         TEXT NOT NULL   -- JSON array of the warnings' texts, in the order they were raised
    ) STRICT;
    ALTER TABLE run_files ADD COLUMN warned INTEGER NOT NULL DEFAULT 0;
    DROP INDEX trajectories_collection_task;
  `);
  setTaskSources(db);
  const moved = rekey(db);
  if (moved) {
    moveCuration(db);
    recomputeSupersession(db);
  }
  db.exec(`
    -- Built after the re-key: one pass over the table rather than an entry moved per re-keyed row.
    CREATE INDEX trajectories_collection_task_trial ON trajectories (collection, task_id, trial);
    DROP TABLE IF EXISTS temp.rekey_0016;
    DROP VIEW curation_grid;
    CREATE VIEW curation_grid AS
      SELECT c.*, t.name AS name, t.category AS category, t.language AS language, t.difficulty AS difficulty,
        t.services AS services, CASE WHEN t.task_id IS NULL THEN 1 ELSE 0 END AS external,
        CASE WHEN instr(c.task_id, '/') > 0
          THEN rtrim(rtrim(c.task_id, replace(c.task_id, '/', '')), '/') END AS task_source
      FROM curation_tasks c LEFT JOIN tasks t ON t.task_id = c.task_id;
  `);
}

/**
 * τ-bench's domain is in its trajectory id (`tau-bench/<domain>/<task>/<trial>`, read from the
 * policy's title at import); τ²'s in its file's header, stored once per file (trajectory_contexts):
 * each header is parsed once (temp.context_domain_0016), then each τ² row reads its body's context id
 * (bodies are read for τ² rows only: reaching that column reads past the raw record).
 */
function setTaskSources(db: Db): void {
  db.exec(`
    UPDATE trajectories SET task_source = 'tau-bench/' || coalesce(CASE WHEN trace_id LIKE 'tau-bench/%/%'
        THEN nullif(substr(trace_id, 11, instr(substr(trace_id, 11), '/') - 1), '') END, 'unknown')
      WHERE source_format = 'tau-bench-v1';
    CREATE TEMP TABLE context_domain_0016 AS
      SELECT id, CASE WHEN json_valid(content) AND json_type(content, '$.info.environment_info.domain_name') = 'text'
        THEN nullif(json_extract(content, '$.info.environment_info.domain_name'), '') END AS domain
      FROM trajectory_contexts;
    UPDATE trajectories SET task_source = 'tau2/' || coalesce((
        SELECT d.domain FROM trajectory_bodies b JOIN temp.context_domain_0016 d ON d.id = b.context_id
        WHERE b.trajectory_id = trajectories.id), 'unknown')
      WHERE source_format = 'tau2-results';
    DROP TABLE temp.context_domain_0016;
  `);
}

/** τ rows still under their source's id, except those of an import that named the task to grade against. */
const STALE = `task_source IS NOT NULL AND task_id = source_task_id
  AND (run_id IS NULL OR run_id NOT IN (SELECT id FROM runs WHERE settings ->> '$.taskId' IS NOT NULL))`;

/** Re-keys the stale rows; answers how many moved. temp.rekey_0016 maps each old id to its new ones. */
function rekey(db: Db): number {
  db.exec(`
    CREATE TEMP TABLE rekey_0016 AS
      SELECT DISTINCT task_id AS old, task_source || '/' || source_task_id AS new FROM trajectories WHERE ${STALE};
  `);
  // Graded against a workspace task whose id happened to equal the source's: those were another task's checks.
  // Few rows if any: found through the row table, then their bodies one by one (a join read every body).
  const wrong = db
    .prepare(
      `SELECT id, task_id, task_source || '/' || source_task_id AS key FROM trajectories
       WHERE external = 0 AND ${STALE}`,
    )
    .all() as { id: number; task_id: string; key: string }[];
  const ungrade = db.prepare('UPDATE trajectory_bodies SET grade = NULL WHERE trajectory_id = ?');
  const warn = db.prepare('INSERT OR REPLACE INTO trajectory_warnings (trajectory_id, texts) VALUES (?, ?)');
  for (const w of wrong) {
    ungrade.run(w.id);
    const text =
      `graded against the checks of workspace task ${w.task_id}, whose id equals this record's; its task is ` +
      `${w.key} since task ids include their source, so the grade was removed (${WHO})`;
    warn.run(w.id, JSON.stringify([text]));
  }
  if (wrong.length)
    db.exec(`
      UPDATE trajectories SET external = 1, graded = 0, completion = NULL, safety = NULL, robustness = NULL,
        score = NULL, passed = NULL, checks_origin = NULL, warnings = 1
      WHERE external = 0 AND ${STALE};
    `);
  return db.prepare(`UPDATE trajectories SET task_id = task_source || '/' || source_task_id WHERE ${STALE}`).run()
    .changes;
}

type Split = { old: string; news: string[]; kept: boolean; bucket: string | null; pool: string };

/** Curation rows, the log's changes and one logged batch per target for decisions now on several tasks. */
function moveCuration(db: Db): void {
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO curation_tasks (task_id, pool, attempts, scored, passes, pass_known, bucket, stats_at)
     SELECT r.new, c.pool, 0, 0, 0, 0, c.bucket, ? FROM temp.rekey_0016 r JOIN curation_tasks c ON c.task_id = r.old
     WHERE true ON CONFLICT (task_id) DO NOTHING`,
  ).run(now);
  const splits = (
    db
      .prepare(
        `SELECT r.old, json_group_array(r.new) AS news, c.bucket, c.pool,
           EXISTS (SELECT 1 FROM trajectories t WHERE t.task_id = r.old) AS kept
         FROM temp.rekey_0016 r JOIN curation_tasks c ON c.task_id = r.old
         WHERE c.bucket IS NOT NULL OR c.pool != 'mixed'
         GROUP BY r.old ORDER BY r.old`,
      )
      .all() as (Omit<Split, 'news' | 'kept'> & { news: string; kept: number })[]
  )
    .map((s) => ({ ...s, news: (JSON.parse(s.news) as string[]).sort(), kept: s.kept === 1 }))
    .filter((s) => s.news.length + (s.kept ? 1 : 0) > 1);
  db.exec(`
    DELETE FROM curation_tasks WHERE task_id IN (SELECT old FROM temp.rekey_0016)
      AND NOT EXISTS (SELECT 1 FROM trajectories t WHERE t.task_id = curation_tasks.task_id);
    INSERT OR IGNORE INTO curation_changes (batch_id, item, before, after)
      SELECT c.batch_id, r.new, c.before, c.after FROM curation_changes c
        JOIN curation_batches b ON b.id = c.batch_id AND b.target IN ('bucket', 'pool')
        JOIN temp.rekey_0016 r ON r.old = c.item;
    DELETE FROM curation_changes WHERE item IN (SELECT old FROM temp.rekey_0016)
      AND item NOT IN (SELECT task_id FROM curation_tasks)
      AND batch_id IN (SELECT id FROM curation_batches WHERE target IN ('bucket', 'pool'));
    UPDATE curation_batches
      SET changed = (SELECT count(*) FROM curation_changes c WHERE c.batch_id = curation_batches.id)
      WHERE id IN (SELECT c.batch_id FROM curation_changes c JOIN temp.rekey_0016 r ON r.new = c.item);
  `);
  logSplits(db, splits, 'bucket', now);
  logSplits(db, splits, 'pool', now);
}

/**
 * One batch (kind assign / pool, as a person's would be) listing each new task that received a decision
 * shared with another source: before NULL (the task did not exist), after the decision. Undoing it
 * takes the copies back; nothing is logged when no shared decision moved.
 */
function logSplits(db: Db, splits: Split[], target: 'bucket' | 'pool', now: string): void {
  const moved = splits.filter((s) => (target === 'bucket' ? s.bucket !== null : s.pool !== 'mixed'));
  if (!moved.length) return;
  const items = moved.flatMap((s) => s.news.map((n) => [n, target === 'bucket' ? s.bucket : s.pool] as const));
  const ids = `${moved.length} task id${moved.length === 1 ? '' : 's'}`;
  const reason =
    `task ids now include their source (benchmark and domain): ${ids} that several sources shared kept ` +
    `${target === 'bucket' ? 'their bucket' : 'their pool'} on each of them`;
  const selection = { migration: name, split: Object.fromEntries(moved.map((s) => [s.old, s.news])) };
  const batch = db
    .prepare(
      `INSERT INTO curation_batches (kind, target, value, who, at, reason, selection, changed)
       VALUES (?, ?, NULL, ?, ?, ?, ?, ?)`,
    )
    .run(target === 'bucket' ? 'assign' : 'pool', target, WHO, now, reason, JSON.stringify(selection), items.length);
  const change = db.prepare('INSERT INTO curation_changes (batch_id, item, before, after) VALUES (?, ?, ?, ?)');
  for (const [item, after] of items)
    change.run(batch.lastInsertRowid, item, target === 'bucket' ? null : 'mixed', after);
}

/**
 * formats.md §6.4's replacement rule, by task (supersede.ts): a row of collection X is superseded when
 * a collection listing X in its supersedes holds a row of its task. Task ids changed, so the rows of
 * every superseded-capable collection are brought to the rule again.
 */
function recomputeSupersession(db: Db): void {
  db.exec(`
    UPDATE trajectories AS t SET superseded = s.by IS NOT NULL, superseded_by = s.by FROM (
      SELECT x.id, (SELECT c.name FROM collections c, json_each(c.supersedes) j
        WHERE j.value = x.collection AND c.name != x.collection
          AND EXISTS (SELECT 1 FROM trajectories y WHERE y.collection = c.name AND y.task_id = x.task_id)
        ORDER BY c.created_at, c.name LIMIT 1) AS by
      FROM trajectories x
      WHERE x.collection IN (SELECT j.value FROM collections c, json_each(c.supersedes) j)) AS s
    WHERE t.id = s.id AND (t.superseded != (s.by IS NOT NULL) OR t.superseded_by IS NOT s.by);
  `);
}
