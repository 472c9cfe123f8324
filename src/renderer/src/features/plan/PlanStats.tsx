import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, onEvent } from '../../api/client';
import type { GridFilter } from '../../grids/use-server-grid';

/**
 * Totals beside the title, of the slots the grid's filter shows; refreshed when the plan changes.
 * Asked only once the grid is `ready` (its first rows are in): the core answers one call at a time,
 * and on 1,000,000 slots these sums take ~400 ms that would otherwise come before the rows
 * (bench/first-rows.bench.ts).
 */
export function PlanStats({ filter, ready }: { filter: GridFilter; ready: boolean }) {
  const [stats, setStats] = useState<Output<'plan.stats'> | null>(null);
  const key = JSON.stringify(filter);
  useEffect(() => {
    if (!ready) return;
    let alive = true;
    const load = () =>
      void call('plan.stats', JSON.parse(key) as GridFilter).then(
        (s) => alive && setStats(s),
        () => {},
      );
    load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onEvent('table.changed', ({ table }) => {
      if (table !== 'coverage_slots') return;
      clearTimeout(timer);
      timer = setTimeout(load, 250);
    });
    return () => ((alive = false), clearTimeout(timer), off());
  }, [key, ready]);
  if (!stats) return <p className="stats" data-testid="plan-stats" />;
  const services = Object.keys(stats.byService).length;
  const filtered = filter.filters.length > 0 || !!filter.quick;
  return (
    <p className="stats" data-testid="plan-stats">
      {filtered ? 'Filtered: ' : ''}
      {stats.slots} slots · {stats.plannedTasks} planned tasks (
      {Object.entries(stats.byLanguage)
        .map(([l, n]) => `${l} ${n}`)
        .join(' · ')}
      ) · {services} services
    </p>
  );
}
