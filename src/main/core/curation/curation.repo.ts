import { CurationBatch, CurationTaskRow } from '../../../shared/contract/entities/curation';
import { type PagedTable, pagedList } from '../db/paged-list';
import { type ColumnMap, compileWhere, type GridFilter, type PageQuery } from '../db/sql-filter';
import { prepareCached, type ReadDb } from '../db/sqlite';

const num = (sql: string, selective = true) => ({ sql, kind: 'number' as const, ...(selective ? {} : { selective }) });
const text = (sql: string, selective = true) => ({ sql, kind: 'text' as const, ...(selective ? {} : { selective }) });

/** The curation grid's fields over the curation_grid view (curation_tasks ⟕ tasks); indexed ones per migration 0011. */
export const CURATION_COLUMNS: ColumnMap = {
  task_id: text('task_id'),
  name: text('name'),
  category: text('category'),
  language: text('language', false),
  difficulty: { sql: 'difficulty', kind: 'text', selective: false, order: ['easy', 'medium', 'hard'] },
  services: { sql: 'services', kind: 'list' },
  external: num('external', false),
  task_source: text('task_source', false),
  pool: text('pool', false),
  attempts: num('attempts'),
  scored: num('scored'),
  mean_completion: num('mean_completion'),
  variance: num('variance'),
  min_completion: num('min_completion'),
  best_completion: num('best_completion'),
  best_trial: num('best_trial', false),
  mean_score: num('mean_score'),
  passes: num('passes'),
  pass_at_k: num('pass_at_k'),
  pass_hat_k: num('pass_hat_k'),
  suggested: text('suggested', false),
  bucket: text('bucket', false),
};

const COLS =
  'task_id, name, category, language, difficulty, services, external, task_source, pool, attempts, scored, ' +
  'mean_completion, ' +
  'variance, min_completion, best_completion, best_trajectory, best_trial, mean_score, passes, pass_known, ' +
  'pass_at_k, pass_hat_k, suggested, bucket, stats_at';
type Raw = Record<string, unknown> & { services: string | null; external: number };

export const CURATION_TABLE: PagedTable<CurationTaskRow, Raw> = {
  table: 'curation_grid',
  columns: CURATION_COLUMNS,
  pk: 'task_id',
  select: COLS,
  toRow: (r) =>
    CurationTaskRow.parse({ ...r, services: r.services ? JSON.parse(r.services) : [], external: r.external === 1 }),
  search: { like: ['task_id', 'name', 'category'] },
};

export const LOG_COLUMNS: ColumnMap = {
  id: num('id'),
  kind: text('kind', false),
  target: text('target', false),
  value: text('value', false),
  who: text('who', false),
  at: text('at'),
  reason: text('reason'),
  changed: num('changed'),
  of_batch: num('of_batch'),
};
const LOG_SELECT = 'id, kind, target, value, who, at, reason, selection, changed, of_batch, undone_by';
const toBatch = (r: Record<string, unknown>) =>
  CurationBatch.parse({ ...r, selection: JSON.parse(String(r.selection)) });
export const LOG_TABLE: PagedTable<CurationBatch> = {
  table: 'curation_batches',
  columns: LOG_COLUMNS,
  pk: 'id',
  select: LOG_SELECT,
  toRow: toBatch,
  search: { like: ['reason', 'who', 'value'] },
};

const BINS = 10;
/** The key of tasks outside the workspace (no category, language or services). */
const EXTERNAL = '(external)';

/** SQLite's BINARY order of text (UTF-8 bytes), which the charts kept when SQL sorted them. */
const sqlOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A task's services as the charts count them: the JSON array's elements; none when it is not one. */
function servicesOf(json: string | null): unknown[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** `key\0bucket` counts as rows ordered by key, then bucket. */
const countRows = (m: Map<string, number>) =>
  [...m]
    .map(([k, count]) => {
      const [key, bucket] = k.split('\u0000') as [string, string];
      return { key, bucket, count };
    })
    .sort((x, y) => sqlOrder(x.key, y.key) || sqlOrder(x.bucket, y.bucket));

export function curationRepo(db: ReadDb) {
  return {
    tasks: (q: PageQuery) => pagedList(db, CURATION_TABLE, q),
    log: (q: PageQuery) =>
      pagedList(db, LOG_TABLE, { ...q, sort: q.sort.length ? q.sort : [{ field: 'id', dir: 'desc' }] }),
    batch(id: number): CurationBatch | undefined {
      const r = prepareCached(db, `SELECT ${LOG_SELECT} FROM curation_batches WHERE id = ?`).get(id);
      return r ? toBatch(r as Record<string, unknown>) : undefined;
    },
    changes(id: number, offset: number, limit: number) {
      const changes = prepareCached(
        db,
        'SELECT item, before, after FROM curation_changes WHERE batch_id = ? ORDER BY item LIMIT ? OFFSET ?',
      ).all(id, limit, offset) as { item: string; before: string | null; after: string | null }[];
      const total = (
        prepareCached(db, 'SELECT count(*) AS n FROM curation_changes WHERE batch_id = ?').get(id) as { n: number }
      ).n;
      return { changes, total };
    },
    /**
     * Histograms of mean completion per assigned bucket, and bucket counts by category, service and language.
     * One pass over the filtered tasks, counted here: four GROUP BYs over the join with tasks cost four joins.
     */
    charts(f: GridFilter) {
      const w = compileWhere(f, CURATION_COLUMNS, CURATION_TABLE.search);
      // Raw rows (arrays: a tenth of the cost of 50,000 objects), from a statement of its own (the shared cache's
      // statements stay in the default mode).
      const rows = (db as unknown as { prepare(s: string): { raw(): { all(...p: unknown[]): unknown[] } } })
        .prepare(
          `SELECT coalesce(bucket, 'none'), mean_completion, category, language, services FROM curation_grid ${w.sql}`,
        )
        .raw()
        .all(...w.params) as [string, number | null, string | null, string | null, string | null][];
      const histogram = new Map<string, number[]>();
      const category = new Map<string, number>();
      const language = new Map<string, number>();
      const service = new Map<string, number>();
      const bump = (m: Map<string, number>, key: unknown, b: string) => {
        const k = `${key ?? EXTERNAL}\u0000${b}`;
        m.set(k, (m.get(k) ?? 0) + 1);
      };
      for (const [b, m, c, l, s] of rows) {
        if (m !== null) {
          const bins = histogram.get(b) ?? new Array<number>(BINS).fill(0);
          bins[Math.max(0, Math.min(BINS - 1, Math.trunc(m * BINS)))]! += 1;
          histogram.set(b, bins);
        }
        bump(category, c, b);
        bump(language, l, b);
        const services = servicesOf(s);
        if (!services.length) bump(service, null, b);
        for (const x of services) bump(service, x, b);
      }
      return {
        histogram: [...histogram].sort(([a], [b]) => sqlOrder(a, b)).map(([bucket, bins]) => ({ bucket, bins })),
        category: countRows(category),
        language: countRows(language),
        service: countRows(service),
      };
    },
  };
}
