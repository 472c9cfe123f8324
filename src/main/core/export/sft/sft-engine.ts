import type {
  LintFinding,
  RejectionReason,
  SftOptions,
  SftProgress,
} from '../../../../shared/contract/entities/export';

export type { SftProgress };
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import { AppError } from '../../lib/errors';
import { RedactionChangedGrade } from '../redaction-grade';
import { type AgentView, projectAgentView } from './agent-view';
import { converterVerdict } from './converter-filters';
import type { DialectSpec, Issue } from './dialects/dialect';
import type { LightTable } from './light-table';
import { compilePrefixPattern, type Light, preselect, readLights, type SftRecord } from './preselect';
import type { ReportBuilder } from './report';
import { withTrainingPrompt } from './training-prompt';
import { sampleRecords, trivialTakenEstimate } from './sampled-preview';

export type EngineHooks = {
  onReject?(light: Light, reason: RejectionReason, detail: string): void;
  onLint?(f: LintFinding): void;
  /** Called every 1,000 records of each pass; may throw to cancel (nothing is exported then). */
  onProgress?(p: SftProgress): void;
  /**
   * A preview's budget: read the bodies of about this many records past the metadata steps (a hashed
   * sample, sampled-preview.ts) and weigh each as the share of the selection it stands for
   * (ReportBuilder.bodyWeight). Never set for an export, which reads every body.
   */
  sampleBodies?: number;
  /** Told when the selection was sampled: records whose bodies were read, of those past the metadata steps. */
  onSample?(s: { examined: number; of: number }): void;
};

export type Emitted<Row> = { light: Light; record: SftRecord; trajectoryId: string; row: Row; view: AgentView };

/** Inline `$defs` by default only where the trainer's formatter needs it (LLaMA-Factory, §3.3 rule 8). */
export const inlineDefsFor = (d: DialectSpec<unknown>, o: SftOptions) => o.inlineDefs ?? d.id === 'llamafactory';

type Outcome<Row> =
  | { ok: true; row: Row; view: AgentView; trajectoryId: string; findings: Issue[] }
  | { ok: false; reason: RejectionReason; detail: string; findings: Issue[] };

/**
 * The selection and conversion of §6.5 as one stream: yields each record to export with its
 * rendered row, in record order (then the TRIVIAL winners), while every other record is reported
 * to `report` and `hooks.onReject` with its one reason. Reads `records` up to three times: the
 * metadata, the bodies of records past steps 1–3, and the bodies of the TRIVIAL winners.
 */
export function* runSelection<Row>(
  records: Iterable<SftRecord>,
  dialect: DialectSpec<Row>,
  o: SftOptions,
  report: ReportBuilder,
  hooks: EngineHooks = {},
): Generator<Emitted<Row>> {
  const problems = dialect.optionProblems(o);
  if (problems.length) throw new AppError('INVALID_INPUT', `options for ${dialect.id}: ${problems.join('; ')}`);
  const { table, supersedes } = readLights(records, compilePrefixPattern(o.trivialPrefixPattern));
  const total = table.size;
  hooks.onProgress?.({ phase: 'metadata', done: total, total });
  report.input = total;
  for (let i = 0; i < total; i++) report.pools.add(table.string(table.poolKey(i)));
  const pre = preselect(table, supersedes, o);
  report.unsolvableTasks = pre.unsolvableTasks;
  const reject = (l: Light, reason: RejectionReason, detail: string) => {
    report.reject(l.id, reason, detail);
    hooks.onReject?.(l, reason, detail);
  };
  const findings = (l: Light, issues: Issue[]) => {
    for (const i of issues) {
      const f = { recordId: l.id, ...i };
      report.lint(f);
      hooks.onLint?.(f);
    }
  };
  for (let i = 0; i < total; i++) {
    const v = pre.verdicts.get(i);
    if (v) reject(table.light(i), v.reason, v.detail);
  }
  const sampled = hooks.sampleBodies === undefined ? null : sampleRecords(table, pre.verdicts, hooks.sampleBodies);
  if (sampled) {
    report.bodyWeight = sampled.of / sampled.examined;
    hooks.onSample?.({ examined: sampled.examined, of: sampled.of });
  }

  // TRIVIAL records that converted, by their number in the table: linted and counted when chosen.
  const candidates: number[] = [];
  for (const { index, record } of pass(records, table, 'convert', hooks)) {
    if (pre.verdicts.has(index) || (sampled && !sampled.ids.has(index))) continue;
    const l = table.light(index);
    const out = convert(record, l, dialect, o, report);
    if (!out.ok) {
      findings(l, out.findings);
      reject(l, out.reason, out.detail);
    } else if (l.bucket === 'TRIVIAL' && l.override !== 'include') candidates.push(index);
    else {
      findings(l, out.findings);
      report.keep(l.reward, out.view.counts);
      yield { light: l, record, trajectoryId: out.trajectoryId, row: out.row, view: out.view };
    }
  }

  const winners = chooseTrivial(table, candidates);
  for (const i of candidates) {
    const w = winners.get(table.prefixKey(i))!;
    if (w === i) continue;
    const l = table.light(i);
    const detail = `prefix ${l.prefix}: record ${table.id(w)} is kept`;
    // In a sample a prefix has fewer rivals than in the whole selection: the count is estimated apart.
    if (sampled) hooks.onReject?.(l, 'trivial_prefix_taken', detail);
    else reject(l, 'trivial_prefix_taken', detail);
  }
  if (sampled) {
    const taken = trivialTakenEstimate(sampled, candidates.length);
    if (taken > 0) report.estimate('trivial_prefix_taken', taken, 'estimated from the sample: one record per prefix');
  }
  if (!winners.size) return;
  const chosen = new Set(winners.values());
  for (const { index, record } of pass(records, table, 'trivial', hooks)) {
    if (!chosen.has(index)) continue;
    const l = table.light(index);
    const out = convert(record, l, dialect, o, null);
    findings(l, out.findings);
    if (!out.ok) reject(l, out.reason, out.detail);
    else {
      report.keep(l.reward, out.view.counts);
      yield { light: l, record, trajectoryId: out.trajectoryId, row: out.row, view: out.view };
    }
  }
}

/**
 * One pass over the records, each with its number in the table from pass 1 (a source that changed in
 * between is an error: its ids no longer line up).
 */
function* pass(
  records: Iterable<SftRecord>,
  table: LightTable,
  phase: SftProgress['phase'],
  hooks: EngineHooks,
): Generator<{ index: number; record: SftRecord }> {
  let i = 0;
  for (const record of records) {
    const id = i < table.size ? table.id(i) : null;
    if (record.recordId !== id)
      throw new AppError('CONFLICT', `the records changed while exporting (record #${i} is not ${id ?? 'expected'})`);
    yield { index: i, record };
    if (++i % 1000 === 0) hooks.onProgress?.({ phase, done: i, total: table.size });
  }
  if (i !== table.size) throw new AppError('CONFLICT', `the records changed while exporting (${i} of ${table.size})`);
  hooks.onProgress?.({ phase, done: i, total: table.size });
}

/** Steps 4 and 6 for one record: the converter (when its pool uses it), the view's own problems, render, lint. */
function convert<Row>(
  record: SftRecord,
  l: Light,
  dialect: DialectSpec<Row>,
  o: SftOptions,
  report: ReportBuilder | null,
): Outcome<Row> {
  const converter = o.pools[l.pool]!.converter;
  let t: Trajectory;
  let view: AgentView;
  try {
    t = typeof record.trajectory === 'function' ? record.trajectory() : record.trajectory;
    view = projectAgentView(t, {
      observationChars: converter ? o.converter.observationChars : null,
      inlineDefs: inlineDefsFor(dialect, o),
      requireToolSchemas: o.requireToolSchemas,
    });
    if (o.systemPrompt === 'training') view = withTrainingPrompt(view);
  } catch (e) {
    if (e instanceof RedactionChangedGrade)
      return { ok: false, reason: 'redaction_changed_grade', detail: e.message, findings: [] };
    // A body that cannot be loaded or is not a canonical trajectory: this record is out, the export goes on.
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, reason: 'malformed_trajectory', detail: `cannot read the trajectory: ${why}`, findings: [] };
  }
  if (converter) {
    const v = converterVerdict(view, o.converter);
    report?.converted(v === null);
    if (v) return { ok: false, ...v, findings: [] };
  }
  if (view.problem) return { ok: false, ...view.problem, findings: [] };
  // One reason and one explanation for the whole dialect, not a lint error per call of every record.
  if (view.schemasMissing && dialect.withoutSchemas !== null)
    return { ok: false, reason: 'missing_tool_schemas', detail: dialect.withoutSchemas, findings: [] };
  const r = dialect.render(view, o);
  if (!r.ok) return { ok: false, reason: r.reason, detail: r.detail, findings: [] };
  const notes = view.notes.map((n): Issue => ({ severity: 'warning', ...n }));
  const issues = [...notes, ...r.warnings, ...dialect.lint(r.row)];
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length)
    return {
      ok: false,
      reason: 'lint_failed',
      detail: `${errors[0]!.code}: ${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
      findings: issues,
    };
  return { ok: true, row: r.row, view, trajectoryId: t.trajectory_id, findings: issues };
}

/**
 * At most one record per prefix among qualifying TRIVIAL records: highest reward, then lowest trial, then first seen
 * (§6.3). Records and answers are numbers in the table; the answer is keyed by the prefix's string number.
 */
function chooseTrivial(t: LightTable, candidates: readonly number[]): Map<number, number> {
  const better = (a: number, b: number) => {
    const ra = t.rewardOf(a) ?? Number.NEGATIVE_INFINITY;
    const rb = t.rewardOf(b) ?? Number.NEGATIVE_INFINITY;
    if (ra !== rb) return ra > rb;
    const ta = t.trialOf(a) ?? Number.POSITIVE_INFINITY;
    const tb = t.trialOf(b) ?? Number.POSITIVE_INFINITY;
    if (ta !== tb) return ta < tb;
    return a < b;
  };
  const best = new Map<number, number>();
  for (const c of candidates) {
    const b = best.get(t.prefixKey(c));
    if (b === undefined || better(c, b)) best.set(t.prefixKey(c), c);
  }
  return best;
}
