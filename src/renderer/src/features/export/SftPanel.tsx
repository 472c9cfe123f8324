import { useEffect, useRef, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import {
  type ChatTemplateId,
  DEFAULT_POOLS,
  type RenderSummary,
  type SftDialect,
} from '../../../../shared/contract/entities/export';
import { call, errorText } from '../../api/client';
import { ExportRun } from './ExportRun';
import { ErrorNotice } from '../../components/ErrorNotice';

type Preview = Output<'export.sftPreview'>;
const DIALECTS: { id: SftDialect; label: string }[] = [
  { id: 'trl', label: 'TRL (messages + tools)' },
  { id: 'openai', label: 'OpenAI fine-tuning' },
  { id: 'llamafactory', label: 'LLaMA-Factory sharegpt' },
  { id: 'verl', label: 'verl SFT parquet' },
];
const BUCKETS = ['KEEP', 'TRIVIAL', 'UNSOLVABLE'] as const;
type Bucket = (typeof BUCKETS)[number];
/** Steps whose counts a sampled preview estimates (the metadata steps before them are exact). */
const ESTIMATED_STEPS = new Set(['converter', 'trivial_prefix', 'dialect']);
const num = (s: string): number | undefined => (s.trim() === '' || Number.isNaN(Number(s)) ? undefined : Number(s));

/** The SFT export: dialect, pool, filters; counts per reason live, examples, one record as the trainer sees it. */
export function SftPanel({ exportsDir }: { exportsDir: string }) {
  const [dialect, setDialect] = useState<SftDialect>('trl');
  // '': every pool, each record judged by its own task's pool (curation's `set pool`).
  const [pool, setPool] = useState('');
  const [minReward, setMinReward] = useState('');
  // Explicit, never implied by 0: a prepared SFT set (τ²-bench's) has no rewards at all.
  const [noReward, setNoReward] = useState(false);
  const [noSchemas, setNoSchemas] = useState(false);
  // The chat template every exported record is rendered with ('': the dialect's default) and the length budget.
  const [template, setTemplate] = useState<ChatTemplateId | ''>('');
  const [budgetUnit, setBudgetUnit] = useState<'tokens' | 'chars'>('tokens');
  const [budgetMax, setBudgetMax] = useState('1024');
  const [buckets, setBuckets] = useState<Bucket[]>(['KEEP', 'TRIVIAL']);
  const [allUncurated, setAllUncurated] = useState(false);
  const [minMessages, setMinMessages] = useState('5');
  const [maxToolCalls, setMaxToolCalls] = useState('20');
  const [maxChars, setMaxChars] = useState('40000');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A sampled preview by default (live on any workspace); "Count exactly" reads every body.
  const [exact, setExact] = useState(false);
  // One key per panel (and window): the server stops this panel's previous preview when a new one is asked.
  const previewKey = useRef(`sft-preview-${Math.random().toString(36).slice(2)}`).current;

  const min = num(minReward);
  // Typed text that is not a reward in [0, 1] is said so, not silently read as "the pool's threshold".
  const badMin = minReward.trim() !== '' && (min === undefined || min < 0 || min > 1);
  const selection = { ...(pool ? { pool } : {}), admittedBuckets: buckets, allUncurated };
  // undefined: the pool's own threshold; null: no reward required.
  const threshold = noReward ? null : min !== undefined && !badMin ? min : undefined;
  const options = {
    converter: {
      minMessages: num(minMessages) ?? 5,
      maxToolCalls: num(maxToolCalls) ?? 20,
      maxChars: num(maxChars) ?? 40_000,
      observationChars: 1000,
    },
    ...(threshold !== undefined
      ? {
          pools: Object.fromEntries(
            (pool ? [pool] : Object.keys(DEFAULT_POOLS)).map((p) => [
              p,
              { minReward: threshold, converter: DEFAULT_POOLS[p]?.converter ?? false },
            ]),
          ),
        }
      : {}),
    ...(noSchemas ? { requireToolSchemas: false } : {}),
    ...(template ? { chatTemplate: template } : {}),
    lengthBudget: { unit: budgetUnit, max: Math.max(1, Math.floor(num(budgetMax) ?? 1024)) },
  };
  const key = JSON.stringify({ dialect, selection, options, exact });
  // Live: every change of the form asks for a new preview (debounced; a late answer never overwrites a newer one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the form's state
  useEffect(() => {
    let current = true;
    setLoading(true);
    const t = setTimeout(() => {
      const budget = exact ? { maxBodies: null } : {};
      call('export.sftPreview', { dialect, selection, options, examples: 3, ...budget, key: previewKey }).then(
        (p) => current && (setPreview(p), setError(null), setLoading(false)),
        (e) => current && (setError(errorText(e)), setLoading(false)),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(t);
    };
  }, [key]);

  const r = preview?.preview.report;
  const estimate = preview?.preview.estimate;
  const toggle = (b: Bucket) => setBuckets((xs) => (xs.includes(b) ? xs.filter((x) => x !== b) : [...xs, b]));
  return (
    <div className="export-panel">
      <div className="toolbar">
        <label>
          Dialect{' '}
          <select aria-label="Dialect" value={dialect} onChange={(e) => setDialect(e.target.value as SftDialect)}>
            {DIALECTS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Pool{' '}
          <select aria-label="Pool" value={pool} onChange={(e) => setPool(e.target.value)}>
            <option value="">every pool (each task's own)</option>
            {Object.entries(DEFAULT_POOLS).map(([p, rule]) => (
              <option key={p} value={p}>
                {p} (≥ {rule.minReward})
              </option>
            ))}
          </select>
        </label>
        <label>
          Min reward{' '}
          <input
            aria-label="Min reward"
            size={5}
            value={minReward}
            placeholder="pool's"
            aria-invalid={badMin}
            disabled={noReward}
            className={badMin ? 'input-invalid' : undefined}
            onChange={(e) => setMinReward(e.target.value)}
          />
          {badMin && <span className="hint">a number from 0 to 1; the pool's threshold is used meanwhile</span>}
        </label>
        <label title="Admit records without a reward (prepared SFT sets); the manifest says rewards were not required">
          <input type="checkbox" checked={noReward} onChange={(e) => setNoReward(e.target.checked)} /> No reward
          required
        </label>
        <label title="TRL, LLaMA-Factory and verl render tool calls without schemas; OpenAI cannot and says why">
          <input type="checkbox" checked={noSchemas} onChange={(e) => setNoSchemas(e.target.checked)} /> Allow calls
          without tool schemas
        </label>
        <label title="Every exported record is rendered with this chat template; records it refuses are reported">
          Chat template{' '}
          <select
            aria-label="Chat template"
            value={template}
            onChange={(e) => setTemplate(e.target.value as ChatTemplateId | '')}
          >
            <option value="">dialect default</option>
            {TEMPLATES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label title="Records longer than this once rendered are reported (TRL's default max_length is 1,024 tokens)">
          Length budget{' '}
          <input
            aria-label="Length budget"
            inputMode="numeric"
            size={6}
            value={budgetMax}
            onChange={(e) => setBudgetMax(e.target.value)}
          />{' '}
          <select
            aria-label="Length budget unit"
            value={budgetUnit}
            onChange={(e) => setBudgetUnit(e.target.value === 'chars' ? 'chars' : 'tokens')}
          >
            <option value="tokens">tokens</option>
            <option value="chars">characters</option>
          </select>
        </label>
        {BUCKETS.map((b) => (
          <label key={b}>
            <input type="checkbox" checked={buckets.includes(b)} onChange={() => toggle(b)} /> {b}
          </label>
        ))}
        <label>
          <input
            type="checkbox"
            aria-label="Include uncurated"
            checked={allUncurated}
            onChange={(e) => setAllUncurated(e.target.checked)}
          />{' '}
          Include uncurated
        </label>
      </div>
      <div className="toolbar">
        <span className="hint">Converter (mixed pool):</span>
        <label>
          min messages <input size={4} value={minMessages} onChange={(e) => setMinMessages(e.target.value)} />
        </label>
        <label>
          max tool calls <input size={4} value={maxToolCalls} onChange={(e) => setMaxToolCalls(e.target.value)} />
        </label>
        <label>
          max characters <input size={7} value={maxChars} onChange={(e) => setMaxChars(e.target.value)} />
        </label>
        {loading && <span className="hint">updating…</span>}
      </div>
      {preview?.curation.notice && !allUncurated && (
        <p className="notice notice-info" role="status" data-testid="curation-notice">
          <span>{preview.curation.notice}</span>
          {preview.curation.trajectories > 0 && (
            <button type="button" onClick={() => setAllUncurated(true)}>
              Include uncurated
            </button>
          )}
        </p>
      )}
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
      {estimate && (
        <p className="notice notice-info" role="status" data-testid="sft-estimate">
          <span>
            Counts after the curation and reward steps are estimated (≈) from {estimate.examined} of {estimate.of}{' '}
            trajectories (a hashed sample); the export itself reads every one.
          </span>
          <button type="button" onClick={() => setExact(true)}>
            Count exactly
          </button>
        </p>
      )}
      {r && <SftReportView preview={preview} />}
      <ExportRun
        job="export.sft"
        defaultDir={`${exportsDir}/sft-${dialect}`}
        disabled={!r || r.exported === 0}
        start={(outDir, overwrite) => call('export.sft', { dialect, outDir, overwrite, selection, options })}
        describe={(x) => `${x.report.exported} records written to ${x.outDir}${renderText(x.report.render)}`}
      />
    </div>
  );
}

function SftReportView({ preview }: { preview: Preview }) {
  const { report: r, examples, sample, findings } = preview.preview;
  const red = preview.redaction;
  const about = preview.preview.estimate ? '≈ ' : '';
  return (
    <>
      <p className="stats" data-testid="sft-counts">
        {r.input} trajectories · <strong>{`${about}${r.exported}`} exported</strong> · {`${about}${r.rejected}`}{' '}
        rejected · converter kept {`${about}${r.converter.kept}`} of {`${about}${r.converter.in}`} · lint{' '}
        {`${about}${r.lint.errors}`} errors, {`${about}${r.lint.warnings}`} warnings
        {r.retained.withoutReward ? ` · ${about}${r.retained.withoutReward} exported without a reward` : ''}
        {red.total ? ` · ${red.total} credentials redacted${about ? ' (in the sample)' : ''}` : ''}
      </p>
      <table className="table small" data-testid="rejections">
        <thead>
          <tr>
            <th>Reason</th>
            <th>Step</th>
            <th>Records</th>
            <th>Examples</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(r.rejections).map(([reason, x]) => (
            <tr key={reason}>
              <td>{reason.replaceAll('_', ' ')}</td>
              <td>{x.step}</td>
              <td>{ESTIMATED_STEPS.has(x.step) ? `${about}${x.count}` : x.count}</td>
              <td>
                {(examples[reason as keyof typeof examples] ?? []).map((e) => (
                  <div key={e.recordId}>
                    #{e.recordId}: {e.detail}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {findings.length > 0 && (
        <table className="table small" data-testid="lint-findings">
          <thead>
            <tr>
              <th>Record</th>
              <th>Severity</th>
              <th>Rule</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {findings.map((f) => (
              <tr key={`${f.recordId}-${f.code}-${f.message}`}>
                <td>#{f.recordId}</td>
                <td>{f.severity}</td>
                <td>{f.code}</td>
                <td>{f.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2 className="section-title">As the trainer sees it{sample ? ` (record #${sample.recordId})` : ''}</h2>
      {sample ? (
        <pre className="export-sample" data-testid="sft-sample">
          {JSON.stringify(sample.row, null, 2)}
        </pre>
      ) : (
        <p className="hint">No record passes the filters.</p>
      )}
    </>
  );
}

const TEMPLATES: readonly ChatTemplateId[] = ['qwen2.5', 'qwen3', 'llama3.1'];

/** What rendering the exported records with their chat template found, in one sentence. */
function renderText(r: RenderSummary | undefined): string {
  if (!r) return '';
  const unit = r.budget.unit === 'tokens' ? 'tokens' : 'characters';
  return (
    `; rendered with ${r.template}: ${r.failed} refused by the template, ${r.overBudget.count} over ` +
    `${r.budget.max.toLocaleString('en-US')} ${unit}` +
    (r.lengths
      ? ` (median ${r.lengths.median.toLocaleString('en-US')}, max ${r.lengths.max.toLocaleString('en-US')})`
      : '')
  );
}
