import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, onEvent } from '../../api/client';
import type { GridFilter } from '../../grids/use-server-grid';

/** Totals beside the title, of the slots the grid's filter shows; refreshed when the plan changes. */
export function PlanStats({ filter }: { filter: GridFilter }) {
  const [stats, setStats] = useState<Output<'plan.stats'> | null>(null);
  const key = JSON.stringify(filter);
  useEffect(() => {
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
  }, [key]);
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
