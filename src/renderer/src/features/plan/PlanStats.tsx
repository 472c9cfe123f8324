import { useLiveQuery } from '../../api/use-live-query';
import type { ListFilter } from '../../grids/grid-types';

/**
 * Totals beside the title, of the slots the grid's filter shows; refreshed when the plan changes.
 * Asked only once the grid is `ready` (its first rows are in): the core answers one call at a time,
 * and on 1,000,000 slots these sums take ~400 ms that would otherwise come before the rows
 * (bench/first-rows.bench.ts).
 */
export function PlanStats({ filter, ready }: { filter: ListFilter<'plan.list'>; ready: boolean }) {
  const stats = useLiveQuery('plan.stats', filter, undefined, { enabled: ready, delayMs: 250 }).data;
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
