import type { LintFinding, SftDialect, SftOptionsInput, SftPreview } from '../../../../shared/contract/entities/export';
import { AppError } from '../../lib/errors';
import type { PyValue } from '../../py/pyjson';
import { DIALECTS } from './dialects';
import { parseSftOptions } from './export-sft';
import { jsonLine } from './json-line';
import type { SftRecord } from './preselect';
import { ReportBuilder } from './report';
import { runSelection, type SftProgress } from './sft-engine';

export type { SftPreview };

export type SftPreviewInput = {
  records: Iterable<SftRecord>;
  dialect: SftDialect;
  options?: SftOptionsInput;
  onProgress?: (p: SftProgress) => void;
  /** Examples kept per rejection reason (default 3) and lint findings kept (default 50). */
  examples?: number;
  findings?: number;
  /** Read about this many bodies at most (whole task groups) and estimate the rest; default: read all. */
  sampleBodies?: number;
};

/**
 * Everything an export would decide, without writing: counts per step and reason, examples, one
 * record rendered for the trainer, and the lint results. Streams the records (constant memory
 * besides the per-record metadata), so the UI can call it live while the user edits the filters.
 */
export function previewSft(input: SftPreviewInput): SftPreview {
  const o = parseSftOptions(input.options);
  const dialect = DIALECTS[input.dialect];
  if (!dialect) throw new AppError('INVALID_INPUT', `unknown dialect ${String(input.dialect)}`);
  const perReason = input.examples ?? 3;
  const maxFindings = input.findings ?? 50;
  const report = new ReportBuilder();
  const examples: SftPreview['examples'] = {};
  const findings: LintFinding[] = [];
  let sample: SftPreview['sample'] = null;
  let estimate: SftPreview['estimate'] = null;
  const rows = runSelection(input.records, dialect, o, report, {
    onReject(l, reason, detail) {
      const list = (examples[reason] ??= []);
      if (list.length < perReason) list.push({ recordId: l.id, detail });
    },
    onLint: (f) => void (findings.length < maxFindings && findings.push(f)),
    onProgress: input.onProgress,
    ...(input.sampleBodies !== undefined ? { sampleBodies: input.sampleBodies } : {}),
    onSample: (s) => void (estimate = s),
  });
  for (const e of rows) {
    if (sample) continue;
    // The same bytes the exporter writes: compact JSON for JSONL dialects; parquet rows hold only strings.
    const text = dialect.id === 'verl' ? JSON.stringify(e.row, null, 2) : jsonLine(e.row as PyValue);
    sample = { recordId: e.light.id, trajectoryId: e.trajectoryId, text, row: JSON.parse(text) };
  }
  return { report: report.build(dialect.id), examples, sample, findings, estimate };
}
