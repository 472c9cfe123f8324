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
import { compilePrefixPattern, type Light, type SftRecord } from './preselect';
import { isSelfSelecting, type Preselected, type Scanned, tablePreselected } from './preselected';
import type { ReportBuilder } from './report';
import { withTrainingPrompt } from './training-prompt';
import { Sampler, trivialTakenEstimate } from './sampled-preview';

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
  const pattern = compilePrefixPattern(o.trivialPrefixPattern);
  // The workspace decides steps 1–3 in SQL (nothing kept per record); other sources in a LightTable.
  const selection = isSelfSelecting(records) ? records.preselect(o, pattern) : tablePreselected(records, o, pattern);
  const total = selection.size;
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
  report.input = total;
  const unsolvable = new Set<string>();
  const sampler = hooks.sampleBodies === undefined ? null : new Sampler(hooks.sampleBodies);
  for (const s of pass(selection, false, 'metadata', hooks)) {
    const l = s.light();
    report.pools.add(l.pool);
    if (s.reason === 'unsolvable') unsolvable.add(l.taskId);
    if (s.reason) reject(l, s.reason, s.detail());
    else sampler?.see(s.order, s.hash, trivial(l), l.prefix);
  }
  report.unsolvableTasks = [...unsolvable].sort();
  const sampled = sampler?.finish() ?? null;
  if (sampled) {
    report.bodyWeight = sampled.of / sampled.examined;
    hooks.onSample?.({ examined: sampled.examined, of: sampled.of });
  }

  // TRIVIAL records that converted: linted and counted when chosen.
  const candidates: Light[] = [];
  for (const s of pass(selection, true, 'convert', hooks)) {
    if (s.reason || (sampled && !sampled.ids.has(s.order))) continue;
    const l = s.light();
    const record = s.record!;
    const out = convert(record, l, dialect, o, report);
    if (!out.ok) {
      findings(l, out.findings);
      reject(l, out.reason, out.detail);
    } else if (trivial(l)) candidates.push(l);
    else {
      findings(l, out.findings);
      report.keep(l.reward, out.view.counts);
      yield { light: l, record, trajectoryId: out.trajectoryId, row: out.row, view: out.view };
    }
  }

  const winners = chooseTrivial(candidates);
  for (const l of candidates) {
    const w = winners.get(l.prefix)!;
    if (w === l) continue;
    const detail = `prefix ${l.prefix}: record ${w.id} is kept`;
    // In a sample a prefix has fewer rivals than in the whole selection: the count is estimated apart.
    if (sampled) hooks.onReject?.(l, 'trivial_prefix_taken', detail);
    else reject(l, 'trivial_prefix_taken', detail);
  }
  if (sampled) {
    const taken = trivialTakenEstimate(sampled, candidates.length);
    if (taken > 0) report.estimate('trivial_prefix_taken', taken, 'estimated from the sample: one record per prefix');
  }
  if (!winners.size) return;
  const chosen = new Map([...winners.values()].map((l) => [l.order, l.id]));
  for (const s of pass(selection, true, 'trivial', hooks)) {
    const id = chosen.get(s.order);
    if (id === undefined) continue;
    const l = s.light();
    if (l.id !== id)
      throw new AppError('CONFLICT', `the records changed while exporting (record #${s.order} is not ${id})`);
    const out = convert(s.record!, l, dialect, o, null);
    findings(l, out.findings);
    if (!out.ok) reject(l, out.reason, out.detail);
    else {
      report.keep(l.reward, out.view.counts);
      yield { light: l, record: s.record!, trajectoryId: out.trajectoryId, row: out.row, view: out.view };
    }
  }
}

/** The TRIVIAL prefix rule's records: TRIVIAL and not force-included by curation. */
const trivial = (l: Light) => l.bucket === 'TRIVIAL' && l.override !== 'include';

/** One pass over the selection, with progress every 1,000 records; every pass must see the same number. */
function* pass(
  selection: Preselected,
  bodies: boolean,
  phase: SftProgress['phase'],
  hooks: EngineHooks,
): Generator<Scanned> {
  const total = selection.size;
  let i = 0;
  for (const s of selection.scan(bodies)) {
    yield s;
    if (++i % 1000 === 0) hooks.onProgress?.({ phase, done: i, total });
  }
  if (i !== total) throw new AppError('CONFLICT', `the records changed while exporting (${i} of ${total})`);
  hooks.onProgress?.({ phase, done: i, total });
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
 * (§6.3). Answers the winner per prefix.
 */
function chooseTrivial(candidates: readonly Light[]): Map<string, Light> {
  const better = (a: Light, b: Light) => {
    const ra = a.reward ?? Number.NEGATIVE_INFINITY;
    const rb = b.reward ?? Number.NEGATIVE_INFINITY;
    if (ra !== rb) return ra > rb;
    const ta = a.trial ?? Number.POSITIVE_INFINITY;
    const tb = b.trial ?? Number.POSITIVE_INFINITY;
    if (ta !== tb) return ta < tb;
    return a.order < b.order;
  };
  const best = new Map<string, Light>();
  for (const c of candidates) {
    const b = best.get(c.prefix);
    if (b === undefined || better(c, b)) best.set(c.prefix, c);
  }
  return best;
}
