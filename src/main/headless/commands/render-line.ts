import type { RenderSummary } from '../../../shared/contract/entities/export';

/** One line on what rendering the records found: refusals by reason, lengths, records over the budget. */
export function renderLine(s: RenderSummary): string {
  const unit = s.budget.unit === 'tokens' ? 'tokens' : 'characters';
  const refused = Object.entries(s.failures)
    .map(([why, f]) => `${f.count} × ${why}`)
    .join('; ');
  const lengths = s.lengths
    ? `${unit}: median ${s.lengths.median}, p95 ${s.lengths.p95}, max ${s.lengths.max}`
    : 'nothing rendered';
  return (
    `rendered with ${s.template}: ${s.rendered} records, ${s.failed} refused${refused ? ` (${refused})` : ''}; ` +
    `${lengths}; ${s.overBudget.count} over ${s.budget.max} ${unit}`
  );
}
