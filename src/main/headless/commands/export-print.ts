import type { ManifestDiff } from '../../../shared/contract/entities/export';
import type { SftExportJobResult } from '../../../shared/contract/export.contract';
import type { RunContext } from '../cli/command';
import { renderLine } from './render-line';

type SftResult = SftExportJobResult;

const avg = (x: number | null, digits = 2) => (x === null ? '–' : x.toFixed(digits));

/** The SFT export's summary: counts, the rejection report per reason, retained averages, files. */
export function printSftResult(ctx: RunContext, r: SftResult): number {
  if (ctx.json) {
    ctx.out(`${JSON.stringify({ ok: true, data: r })}\n`);
    return 0;
  }
  const p = r.report;
  ctx.out(`${p.exported} of ${p.input} trajectories exported (${r.dialect}) → ${r.outDir}\n`);
  const reasons = Object.entries(p.rejections).sort((a, b) => b[1].count - a[1].count);
  for (const [reason, x] of reasons)
    ctx.out(`  ${String(x.count).padStart(7)}  ${reason}${x.detail ? `  (e.g. ${x.detail})` : ''}\n`);
  ctx.out(`converter: ${p.converter.kept} of ${p.converter.in} kept; retained averages: reward `);
  ctx.out(
    `${avg(p.retained.avgReward, 3)}, messages ${avg(p.retained.avgMessages, 1)}, ` +
      `tool calls ${avg(p.retained.avgToolCalls, 1)}\n`,
  );
  if (p.retained.withoutReward)
    ctx.out(`${p.retained.withoutReward} exported without a reward (their pool requires none)\n`);
  ctx.out(`lint: ${p.lint.errors} errors, ${p.lint.warnings} warnings\n`);
  if (p.render) ctx.out(`${renderLine(p.render)}\n`);
  const red = r.redaction;
  if (red.total)
    ctx.out(
      `redacted ${red.total} credential-shaped strings in ${red.records} trajectories (${Object.entries(red.byRule)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')})\n`,
    );
  for (const f of r.files) ctx.out(`  ${f.path}  ${f.bytes} bytes${f.rows === null ? '' : `, ${f.rows} rows`}\n`);
  if (p.exported === 0) ctx.err('warning: no record was exported; see rejections.jsonl for why\n');
  return 0;
}

type RlResult = {
  outDir: string;
  packageId: string;
  counts: { tasks: number; rollouts: number; toolsets: number; fixtures: number };
  noSignalGroups: number;
  redaction: { total: number; records: number };
};

export function printRlResult(ctx: RunContext, r: RlResult): number {
  if (ctx.json) ctx.out(`${JSON.stringify({ ok: true, data: r })}\n`);
  else {
    const c = r.counts;
    ctx.out(
      `package ${r.packageId}: ${c.tasks} tasks, ${c.rollouts} rollouts, ${c.toolsets} tool sets, ` +
        `${c.fixtures} fixture files → ${r.outDir}\n`,
    );
    if (r.noSignalGroups) ctx.out(`${r.noSignalGroups} groups carry no signal (equal rewards): advantage 0\n`);
    if (r.redaction.total)
      ctx.out(`redacted ${r.redaction.total} credential-shaped strings in ${r.redaction.records} rollouts\n`);
    ctx.out(`serve it: coworkenv env serve --package ${r.outDir}\n`);
  }
  return 0;
}

export function renderDiff(ctx: RunContext, d: ManifestDiff): void {
  ctx.out(`dialect ${d.dialect.a} → ${d.dialect.b}; tool ${d.toolVersion.a} → ${d.toolVersion.b}\n`);
  ctx.out(
    `exported ${d.counts.a.exported} → ${d.counts.b.exported}; ` +
      `rejected ${d.counts.a.rejected} → ${d.counts.b.rejected}\n`,
  );
  ctx.out(
    `records: ${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed, ` +
      `${d.unchanged} unchanged\n`,
  );
  for (const [k, v] of Object.entries(d.rejections)) if (v.a !== v.b) ctx.out(`  ${k}: ${v.a} → ${v.b}\n`);
  if (d.options.length) ctx.out(`options changed: ${d.options.join(', ')}\n`);
  const list = (label: string, ids: string[]) => {
    const more = ids.length > 20 ? ` … (${ids.length})` : '';
    if (ids.length) ctx.out(`${label}: ${ids.slice(0, 20).join(', ')}${more}\n`);
  };
  list('added', d.added);
  list('removed', d.removed);
  list('changed', d.changed);
}
