import type { Dispatch, Trajectory } from '../../../../shared/contract/entities/trajectory';
import { auditAnchor, dispatchAnchor, finalAudits } from './evidence';

/**
 * The final audit of each service (its last snapshot, as the grader reads it): each action key's
 * records, each one an anchor a check can point at. Dispatches no tool call names are listed too.
 */
export function AuditPanel({
  t,
  loose,
  focus,
}: {
  t: Pick<Trajectory, 'audits'>;
  loose: (Dispatch & { index: number })[];
  focus: ReadonlySet<string>;
}) {
  const audits = finalAudits(t);
  return (
    <div data-testid="audits">
      <h3>Final audit per service</h3>
      {audits.length === 0 && (
        <p className="hint">No audit snapshot: this source does not record the services' state.</p>
      )}
      {audits.map((a) => (
        <details key={a.service} className="audit-service" open>
          <summary>
            <b>{a.service}</b>{' '}
            <span className="hint">{a.keys.map(([k, v]) => `${k} (${v.length})`).join(' · ') || 'no records'}</span>
          </summary>
          {a.keys.map(([key, records]) => (
            <div key={key} className="audit-key">
              <div className="hint">{key}</div>
              {records.map((r, i) => {
                const id = auditAnchor(a.service, key, i);
                return (
                  <pre key={id} id={id} className={`code audit-record${focus.has(id) ? ' evidence-focus' : ''}`}>
                    {JSON.stringify(r, null, 2)}
                  </pre>
                );
              })}
            </div>
          ))}
        </details>
      ))}
      {loose.length > 0 && (
        <>
          <h3>Dispatches without a tool call in the conversation</h3>
          {loose.map((d) => {
            const id = dispatchAnchor(d.index);
            return (
              <pre key={id} id={id} className={`code${focus.has(id) ? ' evidence-focus' : ''}`}>
                #{d.index} {d.tool} → {d.status}
                {'\n'}
                {JSON.stringify(d.args, null, 2)}
              </pre>
            );
          })}
        </>
      )}
    </div>
  );
}
