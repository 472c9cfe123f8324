import { ApiError, call, errorText } from '../../api/client';
import type { ListFilter } from '../../grids/grid-types';
import { usePlanStore } from '../../stores/plan.store';

const notify = (kind: 'info' | 'error', text: string) => usePlanStore.getState().notify({ kind, text });

/** The plan (or the slots matching the grid's filter) as a CSV download, read page by page. */
export async function exportPlanCsv(filter: ListFilter<'plan.list'>): Promise<void> {
  try {
    const parts: string[] = [];
    let rows = 0;
    for (let afterId: number | null = 0; afterId !== null; ) {
      const page: Awaited<ReturnType<typeof call<'plan.exportCsv'>>> = await call('plan.exportCsv', {
        ...filter,
        afterId,
        limit: 20_000,
      });
      parts.push(page.csv);
      rows += page.rows;
      afterId = page.nextAfterId;
    }
    const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'coverage-plan.csv';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    notify('info', `Exported ${rows.toLocaleString('en-US')} slot(s) as CSV`);
  } catch (err) {
    notify('error', errorText(err));
  }
}

/** Imports a chosen CSV file; a refused file names its first problems (file:line: field: message). */
export async function importPlanCsv(file: File): Promise<void> {
  try {
    const r = await call('plan.importCsv', { csv: await file.text(), file: file.name });
    notify('info', `${file.name}: ${r.created} slot(s) added, ${r.updated} updated`);
  } catch (err) {
    const issues = err instanceof ApiError ? (err.body.issues ?? []) : [];
    const more = issues.length > 3 ? ` … and ${issues.length - 3} more` : '';
    notify(
      'error',
      issues.length
        ? `${issues
            .slice(0, 3)
            .map((i) => i.message)
            .join(' · ')}${more} — nothing was imported`
        : errorText(err),
    );
  }
}
