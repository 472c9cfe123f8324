import { useCallback, useMemo, useState } from 'react';
import type { Evidence } from '../../../../shared/contract/entities/checks';
import { navigate } from '../../router';
import { AuditPanel } from './AuditPanel';
import { undoLast, useUndoStack } from '../../grids/undo';
import { useGridKeys } from '../../grids/use-grid-keys';
import { CheckEditor, checksUndoId } from './CheckEditor';
import { Conversation, revealAnchor } from './Conversation';
import { anchorOf, dispatchesByCall } from './evidence';
import { GradePanel } from './GradePanel';
import { RowFacts } from './RowFacts';
import { useSiblings, useTrajectory } from './use-trajectory';

type Focus = { key: string; anchors: Set<string> };

/**
 * One trajectory: the grade on the left (checks with weights, status, evidence), the conversation
 * and the final audits on the right. A check's click scrolls to its call, message or audit record
 * and highlights every piece of its evidence.
 */
export function TrajectoryViewer({ id, onClose }: { id: number; onClose(): void }) {
  const { d, task, error } = useTrajectory(id);
  const [focus, setFocus] = useState<Focus | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const siblings = useSiblings(d?.row.task_id, id);
  const undoId = checksUndoId(d?.row.task_id ?? '');
  const undo = useUndoStack(undoId);
  const doUndo = () => void undoLast(undoId).then((n) => setNotice(n.text));
  useGridKeys({ z: doUndo }, undo.length > 0);
  const calls = useMemo(() => (d ? dispatchesByCall(d.trajectory) : null), [d]);
  const onFocus = useCallback((key: string, evidence: Evidence[], which = 0) => {
    const anchors = evidence.map(anchorOf).filter((a): a is string => a !== null);
    setFocus({ key, anchors: new Set(anchors) });
    const target = anchors[Math.min(which, anchors.length - 1)];
    if (target) requestAnimationFrame(() => revealAnchor(target));
  }, []);

  if (error)
    return (
      <aside className="detail viewer">
        <p className="notice notice-error">{error}</p>
      </aside>
    );
  if (!d || !calls) return <aside className="detail viewer">Loading…</aside>;
  const anchors = focus?.anchors ?? new Set<string>();
  const editCheck = task?.editable ? task.checks.find((c) => c.id === editing) : undefined;
  return (
    <aside className="detail viewer" data-testid="trajectory-viewer">
      <header className="detail-head">
        <h2>
          Trajectory #{d.row.id} · {d.row.task_id}
        </h2>
        <span>
          {siblings.length > 0 && (
            <select
              aria-label="Compare with"
              value=""
              onChange={(e) =>
                e.target.value &&
                navigate({ page: 'trajectories', trajectoryId: id, compareId: Number(e.target.value) })
              }
            >
              <option value="">Compare with…</option>
              {siblings.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
          <button type="button" className="link" onClick={onClose} aria-label="close">
            ×
          </button>
        </span>
      </header>
      <RowFacts row={d.row} t={d.trajectory} warnings={d.warnings} />
      {notice && (
        <p className="notice notice-info" data-testid="viewer-notice">
          {notice}
        </p>
      )}
      <div className="viewer-body">
        <div className="viewer-side">
          {undo.length > 0 && (
            <button type="button" className="link-button" onClick={doUndo} title="Ctrl+Z" data-testid="undo-check">
              Undo {undo.at(-1)!.label}
            </button>
          )}
          {editCheck && task && (
            <CheckEditor
              key={editCheck.id}
              taskId={d.row.task_id}
              version={task.version}
              check={editCheck}
              onDone={(m) => (setEditing(null), setNotice(m))}
            />
          )}
          <GradePanel
            row={d.row}
            grade={d.grade}
            active={focus?.key ?? null}
            onFocus={onFocus}
            onEdit={task?.editable ? setEditing : undefined}
          />
        </div>
        <div className="viewer-main">
          <Conversation t={d.trajectory} focus={anchors} dispatches={calls.byCall} />
          <AuditPanel t={d.trajectory} loose={calls.loose} focus={anchors} />
        </div>
      </div>
    </aside>
  );
}
