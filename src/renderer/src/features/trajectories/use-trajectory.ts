import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import type { Check } from '../../../../shared/contract/entities/checks';
import { call, errorText, onEvent } from '../../api/client';

export type Loaded = Output<'trajectories.get'>;
/** What the viewer needs of the trajectory's task: editable checks only for tasks stored as a TaskSpec. */
export type TaskInfo = { version: number; editable: boolean; checks: Check[] };

/** A trajectory and its task, reloaded when either changes (a re-grade, another writer). */
export function useTrajectory(id: number) {
  const [d, setD] = useState<Loaded | null>(null);
  const [task, setTask] = useState<TaskInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const x = await call('trajectories.get', { id });
        if (!live) return;
        setD(x);
        if (x.row.external) return setTask(null);
        const t = await call('tasks.get', { taskId: x.row.task_id });
        const editable = t.row.origin !== 'imported';
        const checks = editable ? ((t.spec as { checks?: Check[] }).checks ?? []) : [];
        if (live) setTask({ version: t.row.version, editable, checks });
      } catch (e) {
        if (live) setError(errorText(e));
      }
    };
    void load();
    const off = onEvent('table.changed', ({ table }) => (table === 'trajectories' || table === 'tasks') && void load());
    return () => {
      live = false;
      off();
    };
  }, [id]);
  return { d, task, error };
}

/** Other trajectories of the same task (for "compare with"), newest id first. */
export function useSiblings(taskId: string | undefined, self: number) {
  const [rows, setRows] = useState<{ id: number; label: string }[]>([]);
  useEffect(() => {
    if (!taskId) return;
    call('trajectories.list', {
      limit: 200,
      sort: [{ field: 'id', dir: 'desc' }],
      filters: [{ field: 'task_id', operator: 'AND', conditions: [{ op: 'equals', value: taskId }] }],
    }).then(
      (p) =>
        setRows(
          p.rows
            .filter((r) => r.id !== self)
            .map((r) => ({
              id: r.id,
              label: `#${r.id} · ${r.agent} · trial ${r.trial} · ${r.score?.toFixed(4) ?? 'ungraded'}`,
            })),
        ),
      () => setRows([]),
    );
  }, [taskId, self]);
  return rows;
}
