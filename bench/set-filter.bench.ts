/**
 * The set filter's value list (plan.values) through core.dispatch on BENCH_SLOTS slots (default
 * 1,000,000): difficulty (an enum, unfiltered and under a filter) and services (a list column split
 * per service). Baseline in the same run: a raw `SELECT count(*) FROM coverage_slots`. Goal < 150 ms.
 */
import { emit, header, ms, ratio, sample, stats, table } from './lib/harness';
import { benchWorkspace } from './lib/workspace';

const SLOTS = Number(process.env.BENCH_SLOTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GOAL = 150;

async function main() {
  header(`set-filter: plan.values on ${SLOTS.toLocaleString('en-US')} slots (${RUNS} runs)`);
  const ws = benchWorkspace({ slots: SLOTS });
  const rows: string[][] = [];
  try {
    const call = async (input: unknown) => {
      const r = await ws.core.dispatch('plan.values', input);
      if (!r.ok) throw new Error(r.error.message);
    };
    const base = stats(await sample(() => ws.core.dispatch('plan.list', { limit: 1 }), RUNS, 2));
    const cases: [string, unknown][] = [
      ['difficulty values, no filter', { field: 'difficulty' }],
      ['services values, no filter', { field: 'services' }],
      [
        'difficulty values under language = zh',
        { field: 'difficulty', filters: [{ field: 'language', conditions: [{ op: 'in', values: ['zh'] }] }] },
      ],
    ];
    for (const [name, input] of cases) {
      const s = stats(await sample(() => call(input), RUNS, 2));
      const met = s.median < GOAL;
      rows.push([name, ms(s.median), ms(s.p95), ratio(s.median / base.median), met ? 'met' : 'MISSED']);
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
    console.log(table(['value list', 'median', 'p95', 'vs plan.list', `goal < ${GOAL} ms`], rows));
  } finally {
    await ws.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
