import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { LintFinding, SftDialect } from '../../../../shared/contract/entities/export';
import { AppError } from '../../lib/errors';
import { parseJsonText } from '../../lib/json-input';
import { DIALECTS } from './dialects';
import { readManifest } from './manifest-diff';
import { lintVerlExport } from './verl-lint';
import type { RenderCheck } from './render/render-check';

/** Runs a dialect's lint over rows, tying each finding to its record id. */
export function lintRows(dialect: SftDialect, rows: Iterable<{ recordId: string; row: unknown }>): LintFinding[] {
  const spec = DIALECTS[dialect];
  const out: LintFinding[] = [];
  for (const { recordId, row } of rows) for (const i of spec.lint(row)) out.push({ recordId, ...i });
  return out;
}

/**
 * Re-lints a written JSONL export as its trainer will read it: every line parsed back, checked with
 * the dialect's rules, findings tied to the record ids the manifest gives each line. Lines are read
 * in 1 MB chunks (exports run to gigabytes); verl's parquet is re-read by lintWrittenExport (verl-lint.ts). With
 * `render`, every row that parses is also rendered with a chat template and measured against a budget
 * (render.summary() then has the counts).
 */
export function lintExport(dir: string, render: RenderCheck | null = null): LintFinding[] {
  const m = readManifest(dir);
  if (m.dialect === 'verl')
    throw new AppError('BAD_REQUEST', 'a verl export is parquet, read asynchronously: use lintWrittenExport');
  const file = m.files[0]!.path;
  const ids = new Map(m.records.filter((r) => r.file === file).map((r) => [r.index, r.recordId]));
  const spec = DIALECTS[m.dialect];
  const out: LintFinding[] = [];
  let n = 0;
  for (const line of lines(path.join(dir, file))) {
    const recordId = ids.get(n) ?? `${file}:${n + 1}`;
    n++;
    const parsed = parseJsonText(line, `${file}:${n}`);
    if (!parsed.ok) out.push({ recordId, severity: 'error', code: 'unparseable_line', message: parsed.message });
    else {
      for (const i of spec.lint(parsed.value)) out.push({ recordId, ...i });
      for (const i of render?.check(recordId, parsed.value) ?? []) out.push({ recordId, ...i });
    }
  }
  if (n !== m.report.exported)
    out.push({
      recordId: file,
      severity: 'error',
      code: 'row_count',
      message: `${n} lines; the manifest says ${m.report.exported}`,
    });
  return out;
}

/** Any written SFT export: JSONL here, verl's parquet through its reader (verl-lint.ts). */
export async function lintWrittenExport(dir: string, render: RenderCheck | null = null): Promise<LintFinding[]> {
  const m = readManifest(dir);
  // verl's rows were render-checked as they were written (their lint.json); the re-read checks their fields.
  return m.dialect === 'verl' ? lintVerlExport(dir, m) : lintExport(dir, render);
}

function* lines(file: string): Generator<string> {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    // A chunk may end inside a multi-byte character: the decoder carries it over.
    const utf8 = new StringDecoder('utf8');
    let rest = '';
    for (let got = fs.readSync(fd, buf); got > 0; got = fs.readSync(fd, buf)) {
      const parts = (rest + utf8.write(buf.subarray(0, got))).split('\n');
      rest = parts.pop()!;
      yield* parts;
    }
    rest += utf8.end();
    if (rest) yield rest;
  } finally {
    fs.closeSync(fd);
  }
}
