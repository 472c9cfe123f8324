import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, onEvent } from '../../api/client';

/** Totals beside the title; refreshed when the plan changes. */
export function PlanStats() {
  const [stats, setStats] = useState<Output<'plan.stats'> | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      void call('plan.stats', {}).then(
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
    return () => ((alive = false), off());
  }, []);
  if (!stats) return null;
  const services = Object.keys(stats.byService).length;
  return (
    <p className="stats" data-testid="plan-stats">
      {stats.slots} slots · {stats.plannedTasks} planned tasks (
      {Object.entries(stats.byLanguage)
        .map(([l, n]) => `${l} ${n}`)
        .join(' · ')}
      ) · {services} services
    </p>
  );
}
