/**
 * What the set filter's facet counts (migration 0014) cost the plan's writes: the same writes on
 * two workspaces, one as migrated and one with the coverage_slot_facets triggers dropped (the
 * schema before 0014), interleaved so both see the same machine load. BENCH_SLOTS slots (default
 * 1,000,000) are inserted in chunks of 100,000 (one transaction each, the INSERT the grid job uses,
 * alternating workspaces); then BENCH_RUNS (default 5) rounds of bulk edits through core.dispatch.
 */
import { emit, header, ms, ratio, stats, table } from './lib/harness';
import { benchWorkspace, fillSlots, type BenchWorkspace } from './lib/workspace';
import { openDb } from '../src/main/core/db/sqlite';

const SLOTS = Number(process.env.BENCH_SLOTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHUNK = 100_000;
const EDITS = 1_000;

const dropTriggers = (file: string) => {
  const db = openDb(file);
  for (const t of ['insert', 'delete', 'update']) db.exec(`DROP TRIGGER coverage_slot_facets_${t}`);
  db.close();
};

/** Wall and CPU time (this process: SQLite runs in it), the CPU figure being the steadier on a shared machine. */
type Time = { wall: number; cpu: number };
async function timed(fn: () => unknown): Promise<Time> {
  const t = performance.now();
  const c = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(c);
  return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000 };
}

async function main() {
  header(`slot-writes: facet triggers' cost on ${SLOTS.toLocaleString('en-US')} slots (${RUNS} edit rounds)`);
  const before = benchWorkspace({ prefix: 'coworkenv-bench-before-' });
  const after = benchWorkspace({ prefix: 'coworkenv-bench-after-' });
  dropTriggers(before.file);
  const both: [string, BenchWorkspace][] = [
    ['before', before],
    ['after', after],
  ];
  const times: Record<string, Record<string, Time[]>> = {};
  const note = (op: string, which: string, t: Time) => {
    times[op] ??= { before: [], after: [] };
    times[op][which]!.push(t);
  };
  const call = async (ws: BenchWorkspace, name: string, input: unknown) => {
    const r = await ws.core.dispatch(name as never, input as never);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.data as Record<string, unknown>;
  };
  try {
    const fill = `insert ${SLOTS.toLocaleString('en-US')} slots`;
    for (let from = 0, chunk = 0; from < SLOTS; from += CHUNK, chunk++)
      for (const [which, ws] of chunk % 2 ? [...both].reverse() : both) {
        const db = openDb(ws.file);
        note(fill, which, await timed(() => fillSlots(db, Math.min(CHUNK, SLOTS - from), chunk + 1)));
        db.close();
      }
    const cells = (field: string, round: number) =>
      Array.from({ length: EDITS }, (_, i) => {
        const value = field === 'difficulty' ? ['easy', 'medium', 'hard'][(i + round) % 3] : (i + round) % 40;
        return { id: 1 + round * 7919 + i * 13, field, value };
      });
    // ~1/30 of the plan: a large delete by filter, then its undo.
    const filters = [
      { field: 'scenario', operator: 'AND', conditions: [{ op: 'in', values: ['safety'] }] },
      { field: 'difficulty', operator: 'AND', conditions: [{ op: 'in', values: ['hard'] }] },
      { field: 'language', operator: 'AND', conditions: [{ op: 'in', values: ['zh'] }] },
    ];
    let deleted = 0;
    for (let round = 0; round < RUNS; round++)
      for (const [which, ws] of round % 2 ? [...both].reverse() : both) {
        const edit = (field: string) => call(ws, 'plan.update', { edits: cells(field, round) });
        note(`plan.update ${EDITS} difficulty cells`, which, await timed(() => edit('difficulty')));
        note(`plan.update ${EDITS} target_count cells`, which, await timed(() => edit('target_count')));
        let batch = '';
        note(
          'plan.deleteWhere (1/30 of the plan)',
          which,
          await timed(async () => {
            const r = await call(ws, 'plan.deleteWhere', { filters });
            batch = r.batch as string;
            deleted = r.deleted as number;
          }),
        );
        note('plan.restoreDeleted (its undo)', which, await timed(() => call(ws, 'plan.restoreDeleted', { batch })));
      }
    const rows: string[][] = [];
    for (const [op, t] of Object.entries(times)) {
      const label = op.startsWith('plan.deleteWhere') ? `${op}: ${deleted.toLocaleString('en-US')} rows` : op;
      // The insert adds its chunks up; an edit takes the median of its rounds.
      const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
      const fig = (xs: Time[], k: keyof Time) =>
        op === fill ? sum(xs.map((x) => x[k])) : stats(xs.map((x) => x[k])).median;
      const [bw, aw, bc, ac] = [
        fig(t.before!, 'wall'),
        fig(t.after!, 'wall'),
        fig(t.before!, 'cpu'),
        fig(t.after!, 'cpu'),
      ];
      rows.push([label, ms(bw), ms(aw), ratio(aw / bw), ms(bc), ms(ac), ratio(ac / bc)]);
      emit({
        bench: 'slot-writes',
        name: label,
        median_ms: aw,
        ratio: aw / bw,
        baseline: 'the same write without the facet triggers (schema before 0014), same run',
      });
    }
    console.log(table(['write', 'before 0014', 'with facets', 'ratio', 'CPU before', 'CPU with', 'CPU ratio'], rows));
    console.log('(insert: total of the chunks; edits: median of the rounds)');
  } finally {
    await before.close();
    await after.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
