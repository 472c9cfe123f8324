import type { IDatasource } from 'ag-grid-community';
import type { Slot } from '../../../../shared/contract/entities/slot';
import { call, errorText } from '../../api/client';
import { toPageQuery } from '../../grids/grid-query';
import { usePlanStore } from '../../stores/plan.store';

/** Infinite row model source: each block is one plan.list call; sort and filter run in SQL. */
export const planDatasource: IDatasource = {
  getRows(p) {
    const q = toPageQuery(
      p.startRow,
      p.endRow,
      p.sortModel as { colId: string; sort: 'asc' | 'desc' }[],
      p.filterModel,
    );
    call('plan.list', q).then(
      ({ rows, total }: { rows: Slot[]; total: number }) => {
        usePlanStore.getState().setTotal(total);
        p.successCallback(rows, total);
      },
      (err) => {
        usePlanStore.getState().notify({ kind: 'error', text: `Could not load slots: ${errorText(err)}` });
        p.failCallback();
      },
    );
  },
};
