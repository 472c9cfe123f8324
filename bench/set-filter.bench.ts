/**
 * The set filter's value list (plan.values) through core.dispatch on BENCH_SLOTS slots (default
 * 1,000,000): enums and list columns, unfiltered and under filters. Since migration 0014 a list
 * whose filters are all on facet columns is counted from coverage_slot_facets; each case is also
 * timed the way it was read before (the same list counted over coverage_slots, pagedValues with
 * facets: false, on a second connection) in the same run. Baseline: plan.list with limit 1. Goal < 150 ms.
 */
import { emit, header, ms, ratio, sample, stats, table } from './lib/harness';
import { benchWorkspace } from './lib/workspace';
import { pagedValues } from '../src/main/core/db/paged-list';
import { SLOT_TABLE } from '../src/main/core/plan/slots.repo';
import { openDb, readHandle } from '../src/main/core/db/sqlite';

const SLOTS = Number(process.env.BENCH_SLOTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GOAL = 150;

type Filter = { field: string; conditions: { op: string; values?: string[]; value?: string }[] };
const inSet = (field: string, values: string[]): Filter => ({ field, conditions: [{ op: 'in', values }] });

async function main() {
  header(`set-filter: plan.values on ${SLOTS.toLocaleString('en-US')} slots (${RUNS} runs)`);
  const ws = benchWorkspace({ slots: SLOTS });
  const raw = openDb(ws.file, { readOnly: true });
  const rows: string[][] = [];
  try {
    const call = async (input: unknown) => {
      const r = await ws.core.dispatch('plan.values', input);
      if (!r.ok) throw new Error(r.error.message);
    };
    const base = stats(await sample(() => ws.core.dispatch('plan.list', { limit: 1 }), RUNS, 2));
    const cases: [string, { field: string; filters?: Filter[]; quick?: string }][] = [
      ['difficulty values, no filter', { field: 'difficulty' }],
      ['services values, no filter', { field: 'services' }],
      ['difficulty values under language = zh', { field: 'difficulty', filters: [inSet('language', ['zh'])] }],
      ['services values under language = zh', { field: 'services', filters: [inSet('language', ['zh'])] }],
      [
        'category values under difficulty + services',
        { field: 'category', filters: [inSet('difficulty', ['easy', 'hard']), inSet('services', ['gmail'])] },
      ],
      [
        'difficulty under family contains x (table)',
        { field: 'difficulty', filters: [{ field: 'family', conditions: [{ op: 'contains', value: 'x' }] }] },
      ],
    ];
    for (const [name, input] of cases) {
      const s = stats(await sample(() => call(input), RUNS, 2));
      const q = { filters: (input.filters ?? []).map((f) => ({ ...f, operator: 'AND' as const })), limit: 1000 };
      const old = stats(
        await sample(() => pagedValues(readHandle(raw), SLOT_TABLE, input.field, q as never, { facets: false }), 3, 1),
      );
      const met = s.median < GOAL;
      rows.push([name, ms(s.median), ms(s.p95), ms(old.median), ratio(s.median / base.median), met ? 'met' : 'MISSED']);
      emit({
        bench: 'set-filter',
        name,
        median_ms: s.median,
        p95_ms: s.p95,
        ratio: s.median / base.median,
        baseline: 'plan.list limit 1 (count + first row)',
        goal: `median < ${GOAL} ms`,
        met,
      });
    }
    console.log(table(['value list', 'median', 'p95', 'before (table)', 'vs plan.list', `goal < ${GOAL} ms`], rows));
    console.log(`plan.list limit 1: ${ms(base.median)} median`);
  } finally {
    raw.close();
    await ws.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
