import { useEffect, useState } from 'react';
import type { Input, Output } from '../../../../shared/contract';
import { RuleEdit } from '../../../../shared/contract/curation.contract';
import { call, errorText, onEvent } from '../../api/client';
import type { Notice } from '../../grids/StatusBar';

type Rule = Output<'curation.rules'>[number];
type Preview = Output<'curation.previewRule'>;
type Fields = {
  unsolvableBelow: string;
  trivialMin: string;
  minAttempts: string;
  passK: string;
  trivialAllPass: boolean;
};

const DEFAULT_POOL = 'mixed';
const fieldsOf = (r: Rule | undefined): Fields => ({
  unsolvableBelow: String(r?.unsolvableBelow ?? 0.5),
  trivialMin: String(r?.trivialMin ?? 0.95),
  minAttempts: String(r?.minAttempts ?? 1),
  passK: String(r?.passK ?? 3),
  trivialAllPass: r?.trivialAllPass ?? false,
});

/**
 * The edit as curation.setRule's input, checked with the contract's schema (each field's range), and
 * refused when the cut-offs cross: with UNSOLVABLE below a value above TRIVIAL's, no task could be KEEP.
 */
export function ruleEdit(
  pool: string,
  f: Fields,
): { ok: true; edit: Input<'curation.previewRule'> } | { ok: false; errors: Record<string, string> } {
  const n = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
  const raw = {
    pool,
    unsolvableBelow: n(f.unsolvableBelow),
    trivialMin: n(f.trivialMin),
    minAttempts: n(f.minAttempts),
    passK: n(f.passK),
    trivialAllPass: f.trivialAllPass,
  };
  const r = RuleEdit.safeParse(raw);
  const errors: Record<string, string> = {};
  if (!r.success) for (const i of r.error.issues) errors[String(i.path[0])] ??= i.message;
  else if (raw.unsolvableBelow > raw.trivialMin)
    errors.trivialMin = `at least "unsolvable below" (${raw.unsolvableBelow}), or no task can be KEEP`;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, edit: raw };
}

const bucketName = (b: string | null) => b ?? 'no suggestion';

/**
 * The bucket rules of a pool, editable: thresholds on the mean completion, minimum attempts, Pass@k's
 * k. Before applying, it shows how many of the pool's tasks would get another suggestion
 * (curation.previewRule); applying needs the page's reason and is logged (undo from the log).
 */
export function CurationRules({ reason, onNotice }: { reason: string; onNotice(n: Notice | null): void }) {
  const [rules, setRules] = useState<Rule[]>([]);
  const [pools, setPools] = useState<string[]>([DEFAULT_POOL]);
  const [pool, setPool] = useState(DEFAULT_POOL);
  const [f, setF] = useState<Fields>(fieldsOf(undefined));
  const [preview, setPreview] = useState<Preview | null>(null);
  // Bumped when the stored rules or statistics change: the preview compares with what is stored now.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const load = () => {
      void call('curation.rules', {}).then(setRules, () => {});
      void call('curation.values', { field: 'pool', filters: [] }).then(
        (v) => setPools((p) => [...new Set([...p, ...v.values.map((x) => String(x.value))])].sort()),
        () => {},
      );
    };
    load();
    return onEvent('table.changed', ({ table }) => {
      if (table === 'curation_batches') load();
      if (table === 'curation_batches' || table === 'curation_tasks') setVersion((v) => v + 1);
    });
  }, []);
  const current = rules.find((r) => r.pool === pool);
  useEffect(() => setF(fieldsOf(current)), [current]);
  const checked = ruleEdit(pool, f);
  const key = checked.ok ? JSON.stringify([checked.edit, version]) : null;
  useEffect(() => {
    if (!key) return setPreview(null);
    let alive = true;
    void call('curation.previewRule', JSON.parse(key)[0]).then(
      (p) => alive && setPreview(p),
      () => alive && setPreview(null),
    );
    return () => void (alive = false);
  }, [key]);
  const apply = () => {
    if (!checked.ok) return;
    if (!reason.trim())
      return onNotice({ kind: 'error', text: 'Type a reason first: every change is logged with why' });
    call('curation.setRule', { ...checked.edit, reason }).then(
      (r) =>
        onNotice({
          kind: 'info',
          text:
            `Rules of pool ${r.rule.pool} saved (batch ${r.batchId}); ` +
            `${preview?.changed ?? 0} suggestion(s) changed`,
        }),
      (e) => onNotice({ kind: 'error', text: errorText(e) }),
    );
  };
  const input = (k: Exclude<keyof Fields, 'trivialAllPass'>, label: string, title: string) => {
    const error = checked.ok ? undefined : checked.errors[k];
    return (
      <label className={error ? 'field field-error' : 'field'} title={title}>
        {label}{' '}
        <input
          className="narrow-input"
          aria-label={label}
          aria-invalid={!!error}
          value={f[k]}
          onChange={(e) => setF((x) => ({ ...x, [k]: e.target.value }))}
        />
        {error && (
          <span className="field-message" role="alert" data-testid={`rule-error-${k}`}>
            {error}
          </span>
        )}
      </label>
    );
  };
  return (
    <details className="curation-rules" data-testid="curation-rules">
      <summary>Bucket rules per pool</summary>
      <div className="toolbar">
        <label>
          Pool{' '}
          <select aria-label="Pool" value={pool} onChange={(e) => setPool(e.target.value)}>
            {pools.map((p) => (
              <option key={p} value={p}>
                {p}
                {rules.some((r) => r.pool === p) ? '' : ' (defaults)'}
              </option>
            ))}
          </select>
        </label>
        {input('unsolvableBelow', 'Unsolvable below', 'UNSOLVABLE when the mean completion is below this')}
        {input('trivialMin', 'Trivial from', 'TRIVIAL when the mean completion is at least this')}
        <label title="TRIVIAL also needs every attempt with a known outcome to pass">
          <input
            type="checkbox"
            checked={f.trivialAllPass}
            onChange={(e) => setF((x) => ({ ...x, trivialAllPass: e.target.checked }))}
          />{' '}
          Trivial needs all passes
        </label>
        {input('minAttempts', 'Min attempts', 'fewer attempts with a value: no suggestion')}
        {input('passK', 'Pass@k k', 'k of the Pass@k and Pass^k columns')}
        <button type="button" onClick={apply} disabled={!checked.ok} data-testid="rule-apply">
          Apply to pool
        </button>
      </div>
      {preview && (
        <p className="hint" data-testid="rule-preview">
          {preview.changed} of {preview.tasks} task{preview.tasks === 1 ? '' : 's'} would change suggested bucket
          {preview.transitions.length
            ? `: ${preview.transitions.map((t) => `${bucketName(t.from)} → ${bucketName(t.to)} ${t.count}`).join(', ')}`
            : ''}
          {preview.assignedDiffer ? `; ${preview.assignedDiffer} assigned bucket(s) would then differ` : ''}
        </p>
      )}
    </details>
  );
}
