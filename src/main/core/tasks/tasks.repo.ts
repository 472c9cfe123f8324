import { TaskRow } from '../../../shared/contract/entities/task';
import { pagedList, type PagedTable } from '../db/paged-list';
import type { ColumnMap, PageQuery } from '../db/sql-filter';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import type { ReadTask } from './claw-eval/read-task';

export const TASK_COLUMNS: ColumnMap = {
  task_id: { sql: 'task_id', kind: 'text' },
  name: { sql: 'name', kind: 'text' },
  origin: { sql: 'origin', kind: 'text', selective: false },
  split: { sql: 'split', kind: 'text', selective: false },
  category: { sql: 'category', kind: 'text' },
  difficulty: { sql: 'difficulty', kind: 'text', selective: false, order: ['easy', 'medium', 'hard'] },
  language: { sql: 'language', kind: 'text', selective: false },
  services: { sql: 'services', kind: 'list' },
  version: { sql: 'version', kind: 'number' },
  updated_at: { sql: 'updated_at', kind: 'text' },
  validation_status: { sql: 'validation_status', kind: 'text', selective: false },
  failed_validator: { sql: 'failed_validator', kind: 'text' },
};

const COLS =
  'task_id, name, origin, split, category, difficulty, language, services, tools, warnings, version, content_hash, ' +
  'source_path, created_at, updated_at, validation_status, failed_validator';
type Raw = Record<string, unknown> & { services: string; tools: string; warnings: string };
const toRow = (r: Raw) =>
  TaskRow.parse({
    ...r,
    services: JSON.parse(r.services),
    tools: JSON.parse(r.tools),
    warnings: JSON.parse(r.warnings),
  });

/** The tasks grid's table for pagedList. */
export const TASK_TABLE: PagedTable<TaskRow, Raw> = {
  table: 'tasks',
  columns: TASK_COLUMNS,
  pk: 'task_id',
  select: COLS,
  toRow,
  // Names and prompts are long and often Chinese: an FTS5 trigram index (migration 0010) reads them.
  search: { like: ['task_id', 'category'], fts: { table: 'tasks_fts', columns: ['name', 'prompt'] } },
};

export function tasksRepo(db: ReadDb) {
  return {
    list(q: PageQuery) {
      return pagedList(db, TASK_TABLE, q);
    },
    get(taskId: string) {
      const r = prepareCached(db, `SELECT ${COLS}, spec, source_yaml FROM tasks WHERE task_id = ?`).get(taskId) as
        | (Raw & { spec: string; source_yaml: string })
        | undefined;
      return r
        ? { row: toRow(r), spec: JSON.parse(r.spec) as Record<string, unknown>, sourceYaml: r.source_yaml }
        : undefined;
    },
    fixtures(taskId: string) {
      const rows = prepareCached(
        db,
        'SELECT service, fixture_env, set_by_task, source, content, records FROM task_fixtures WHERE task_id = ? ' +
          'ORDER BY rowid',
      ).all(taskId) as {
        service: string;
        fixture_env: string;
        set_by_task: number;
        source: string;
        content: string;
        records: number;
      }[];
      return rows.map((r) => ({
        service: r.service,
        env: r.fixture_env,
        setByTask: r.set_by_task === 1,
        source: r.source,
        content: r.content,
        records: r.records,
      }));
    },
    hashOf(taskId: string): { hash: string; version: number } | undefined {
      const r = prepareCached(db, 'SELECT content_hash AS hash, version FROM tasks WHERE task_id = ?').get(taskId) as
        | { hash: string; version: number }
        | undefined;
      return r;
    },
    versions(taskId: string) {
      return prepareCached(
        db,
        'SELECT version, content_hash, reason, created_at FROM task_versions WHERE task_id = ? ORDER BY version DESC',
      ).all(taskId) as { version: number; content_hash: string; reason: string; created_at: string }[];
    },
    /** The fixture texts a version had ({env: text}), or undefined when there is no such version. */
    versionFixtures(taskId: string, version: number): Record<string, string> | undefined {
      const r = prepareCached(db, 'SELECT fixtures FROM task_versions WHERE task_id = ? AND version = ?').get(
        taskId,
        version,
      ) as { fixtures: string } | undefined;
      return r ? (JSON.parse(r.fixtures) as Record<string, string>) : undefined;
    },
    /** The spec JSON text a version had (null: written before versions kept it), undefined: no such version. */
    versionSpec(taskId: string, version: number): string | null | undefined {
      const r = prepareCached(db, 'SELECT spec FROM task_versions WHERE task_id = ? AND version = ?').get(
        taskId,
        version,
      ) as { spec: string | null } | undefined;
      return r ? r.spec : undefined;
    },
    /** Validation status per existing task id (ids that are gone are absent). */
    statuses(ids: readonly string[]): Map<string, string> {
      const q = prepareCached(db, 'SELECT validation_status AS s FROM tasks WHERE task_id = ?');
      const out = new Map<string, string>();
      for (const id of ids) {
        const r = q.get(id) as { s: string } | undefined;
        if (r) out.set(id, r.s);
      }
      return out;
    },
    count(): number {
      return (prepareCached(db, 'SELECT count(*) AS n FROM tasks').get() as { n: number }).n;
    },
  };
}

/** Task writes, inside the caller's transaction. */
export function tasksWriter(db: WriteDb) {
  return {
    /** Insert or replace a task and its fixtures (inside the caller's transaction). */
    upsertImported(t: ReadTask, version: number, now: string, createdAt: string): void {
      prepareCached(db, 'DELETE FROM task_fixtures WHERE task_id = ?').run(t.taskId);
      prepareCached(
        db,
        `INSERT INTO tasks (task_id, name, origin, split, category, difficulty, language, services, tools, warnings, ` +
          `version, content_hash, spec, source_yaml, source_path, created_at, updated_at)
         VALUES (?, ?, 'imported', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (task_id) DO UPDATE SET name = excluded.name, split = excluded.split, category = ` +
          `excluded.category, difficulty = excluded.difficulty,
           language = excluded.language, services = excluded.services, tools = excluded.tools, warnings = ` +
          `excluded.warnings, version = excluded.version,
           content_hash = excluded.content_hash, spec = excluded.spec, source_yaml = excluded.source_yaml, ` +
          `source_path = excluded.source_path, updated_at = excluded.updated_at,
           validation_status = 'unvalidated', failed_validator = NULL`,
      ).run(
        t.taskId,
        t.spec.task_name,
        t.split,
        t.spec.category,
        t.spec.difficulty,
        t.spec.prompt.language,
        JSON.stringify(t.spec.services.map((s) => s.name)),
        JSON.stringify(t.spec.tools.map((x) => x.name)),
        JSON.stringify(t.warnings),
        version,
        t.contentHash,
        JSON.stringify(t.spec),
        t.yamlText,
        t.dir,
        createdAt,
        now,
      );
      // Called only when the content changed: status goes back to unvalidated (above); earlier
      // versions' reports stay as history.
      const ins = prepareCached(
        db,
        'INSERT INTO task_fixtures (task_id, service, fixture_env, set_by_task, source, content, records) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const f of t.fixtures)
        ins.run(t.taskId, f.service, f.env, f.setByTask ? 1 : 0, f.source, f.content, f.records);
    },
    /** Snapshot the task's current fixtures as `version` (inside the caller's transaction). */
    recordVersion(taskId: string, version: number, hash: string, reason: string, now: string): void {
      const fixtures = Object.fromEntries(
        tasksRepo(db)
          .fixtures(taskId)
          .map((f) => [f.env, f.content]),
      );
      prepareCached(
        db,
        'INSERT OR REPLACE INTO task_versions (task_id, version, content_hash, reason, fixtures, created_at, spec) ' +
          'VALUES (?, ?, ?, ?, ?, ?, (SELECT spec FROM tasks WHERE task_id = ?))',
      ).run(taskId, version, hash, reason, JSON.stringify(fixtures), now, taskId);
    },
    /** Replace one service's fixture text and move the task to a new version. */
    writeFixture(
      taskId: string,
      service: string,
      env: string,
      content: string,
      records: number,
      version: number,
      hash: string,
      now: string,
    ): void {
      prepareCached(
        db,
        'UPDATE task_fixtures SET content = ?, records = ? WHERE task_id = ? AND service = ? AND fixture_env = ?',
      ).run(content, records, taskId, service, env);
      // An edited task must be validated again: its status is of the old content (the old
      // version's report stays, as history).
      prepareCached(
        db,
        "UPDATE tasks SET version = ?, content_hash = ?, updated_at = ?, validation_status = 'unvalidated', " +
          'failed_validator = NULL WHERE task_id = ?',
      ).run(version, hash, now, taskId);
    },
  };
}
