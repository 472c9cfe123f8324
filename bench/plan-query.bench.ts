/**
 * Grid block queries on a 100,000-slot plan: plan.list through core.dispatch, shaped as the
 * renderer's infinite row model sends them (src/renderer/src/grids/grid-query.ts), for the
 * combinations of the bench brief plus a few harder ones (deep pages under a filter, a filter that
 * matches nothing). Baseline in the same run: `SELECT <columns> FROM coverage_slots LIMIT 100` on a
 * raw connection — no WHERE, no ORDER BY, no count, no dispatch.
 *
 * Goal: < 50 ms per block query, judged on p95. No assertions: figures only.
 */
import { performance } from 'node:perf_hooks';
import type { Input } from '../src/shared/contract';
import { SLOT_COLUMNS, SLOT_TABLE } from '../src/main/core/plan/slots.repo';
import { pageQuery } from '../src/main/core/db/paged-list';
import { compilePage, type PageQuery } from '../src/main/core/db/sql-filter';
import type { FilterOp } from '../src/shared/contract/entities/grid-query';
import { openDb } from '../src/main/core/db/sqlite';
import { emit, header, ms, ratio, sample, stats, table } from './lib/harness';
import { benchWorkspace } from './lib/workspace';

const BENCH = 'plan-query';
const SLOTS = Number(process.env.BENCH_SLOTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const GOAL_MS = 50;
const COLS =
  'id, family, services, category, difficulty, language, reference_date, scenario, target_count, notes, created_at, ' +
  'updated_at';

/** A block request as the grid sends it (plan.list's parsed input has this shape). */
type Block = PageQuery & Input<'plan.list'>;
const block = (
  offset: number,
  sort: Block['sort'],
  filters: [field: Block['sort'][number]['field'], op: FilterOp, value: string | number][],
): Block => ({
  offset,
  limit: 100,
  sort,
  filters: filters.map(([field, op, value]) => ({ field, operator: 'AND', conditions: [{ op, value }] })),
});

/** [label, query, from the brief?] */
const COMBOS: [string, Block, boolean][] = [
  ['first block, no sort or filter', block(0, [], []), false],
  [
    'reference_date desc + services contains gmail',
    block(0, [{ field: 'reference_date', dir: 'desc' }], [['services', 'contains', 'gmail']]),
    true,
  ],
  [
    'category asc + difficulty = hard, language = zh',
    block(
      0,
      [{ field: 'category', dir: 'asc' }],
      [
        ['difficulty', 'equals', 'hard'],
        ['language', 'equals', 'zh'],
      ],
    ),
    true,
  ],
  ['target_count desc, no filter, offset 50,000', block(50_000, [{ field: 'target_count', dir: 'desc' }], []), true],
  ["family contains 'x' (LIKE scan)", block(0, [], [['family', 'contains', 'x']]), true],
  // Harder than the brief: where walking the sort index under a filter reads most of the table.
  [
    'reference_date desc + services contains gmail, offset 10,000',
    block(10_000, [{ field: 'reference_date', dir: 'desc' }], [['services', 'contains', 'gmail']]),
    false,
  ],
  [
    "reference_date desc + family contains 'zzz' (no match)",
    block(0, [{ field: 'reference_date', dir: 'desc' }], [['family', 'contains', 'zzz']]),
    false,
  ],
  [
    'target_count asc + category = finance, offset 2,000',
    block(2_000, [{ field: 'target_count', dir: 'asc' }], [['category', 'equals', 'finance']]),
    false,
  ],
  [
    'category asc + difficulty = hard, language = zh, offset 5,000',
    block(
      5_000,
      [{ field: 'category', dir: 'asc' }],
      [
        ['difficulty', 'equals', 'hard'],
        ['language', 'equals', 'zh'],
      ],
    ),
    false,
  ],
];

async function main() {
  header(
    `${BENCH}: plan.list block queries on ${SLOTS.toLocaleString('en-US')} slots (${RUNS} runs each, after warm-up)`,
  );
  const t0 = performance.now();
  const ws = benchWorkspace({ slots: SLOTS });
  console.log(`workspace filled in ${ms(performance.now() - t0)} (one transaction through slotsRepo.insertOnly)`);
  const raw = openDb(ws.file, { readOnly: true });

  try {
    const baseStmt = raw.prepare(`SELECT ${COLS} FROM coverage_slots LIMIT 100`);
    const base = stats(await sample(() => baseStmt.all(), RUNS));
    emit({
      bench: BENCH,
      name: 'baseline: SELECT … LIMIT 100 (raw)',
      median_ms: base.median,
      p95_ms: base.p95,
      ratio: 1,
      baseline: 'itself',
    });

    const rows: string[][] = [];
    const plans: string[] = [];
    for (const [label, q, fromBrief] of COMBOS) {
      const first = await ws.core.dispatch('plan.list', q);
      if (!first.ok) throw new Error(`${label}: ${first.error.message}`);
      const total = (first.data as { total: number }).total;
      const s = stats(await sample(() => ws.core.dispatch('plan.list', q), RUNS, 5));
      const met = s.p95 < GOAL_MS;
      const plan = explain(raw, q, total);
      rows.push([
        `${fromBrief ? '' : '+ '}${label}`,
        total.toLocaleString('en-US'),
        plan.strategy,
        ms(s.median),
        ms(s.p95),
        ratio(s.median / base.median),
        met ? 'met' : 'MISSED',
      ]);
      plans.push(`${label}\n    ${plan.sql}\n    ${plan.detail}`);
      emit({
        bench: BENCH,
        name: label,
        median_ms: s.median,
        p95_ms: s.p95,
        ratio: s.median / base.median,
        baseline: 'raw SELECT … LIMIT 100',
        goal: `p95 < ${GOAL_MS} ms`,
        met,
      });
    }

    // Not a block query, but the plan page asks for it on open and after every change: tracked, no goal.
    const st = stats(await sample(() => ws.core.dispatch('plan.stats', {}), 10, 2));
    emit({
      bench: BENCH,
      name: 'plan.stats (page totals; informational)',
      median_ms: st.median,
      p95_ms: st.p95,
      ratio: st.median / base.median,
      baseline: 'raw SELECT … LIMIT 100',
    });

    console.log(`\nbaseline: raw SELECT … LIMIT 100 — median ${ms(base.median)}, p95 ${ms(base.p95)}`);
    console.log('(+ = beyond the brief: harder cases)\n');
    console.log(
      table(
        ['plan.list block (limit 100)', 'matched', 'plan', 'median', 'p95', 'vs baseline', `goal p95 < ${GOAL_MS} ms`],
        rows,
      ),
    );
    console.log(
      `\nplan.stats (page totals, asked on open and after each change; no goal): median ${ms(st.median)}, p95 ` +
        `${ms(st.p95)} of 10 runs`,
    );
    console.log('\nQuery plans (EXPLAIN QUERY PLAN of the row query the repo runs):');
    for (const p of plans) console.log(`  ${p}`);
  } finally {
    raw.close();
    await ws.close();
  }
}

/** The row query slots.repo runs for this block (pageQuery, as pagedList runs it) and its plan. */
function explain(
  db: ReturnType<typeof openDb>,
  q: Block,
  total: number,
): { strategy: string; sql: string; detail: string } {
  const { where } = compilePage(q, SLOT_COLUMNS);
  if (q.offset >= total)
    return { strategy: 'count only', sql: `SELECT count(*) … ${where.sql}`, detail: 'no row query: the page is empty' };
  const page = pageQuery(
    SLOT_TABLE,
    q,
    total,
    () => (db.prepare('SELECT count(*) AS n FROM coverage_slots').get() as { n: number }).n,
  );
  const detail = (db.prepare(`EXPLAIN QUERY PLAN ${page.sql}`).all(...page.params) as { detail: string }[])
    .map((r) => r.detail)
    .join(' → ');
  const strategy = page.scan
    ? 'scan + sort ids'
    : /TEMP B-TREE/.test(detail)
      ? 'index filter + sort'
      : /USING INDEX/.test(detail)
        ? 'index walk'
        : 'table scan';
  return { strategy, sql: page.sql.replace(COLS, '…'), detail };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
