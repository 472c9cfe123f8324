import path from 'node:path';
import zlib from 'node:zlib';
import { asyncBufferFromFile, type FileMetaData, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import type { LintFinding, SftManifest } from '../../../../shared/contract/entities/export';
import { DIALECTS } from './dialects';
import { verlSchema } from './verl-parquet';

/** The exporter writes GZIP (verl-parquet.ts); hyparquet reads only Snappy by itself. */
const COMPRESSORS = { GZIP: (input: Uint8Array) => new Uint8Array(zlib.gunzipSync(input)) };

/**
 * Re-lints a written verl export as verl will read it: train.parquet re-read one row group at a time (a group
 * holds at most 10,000 rows or ~64 MB of JSON, verl-parquet.ts), every row checked with the verl dialect's
 * rules, each finding tied to the record id the manifest gives that row and naming the file, the row (0-based,
 * as pandas and the dataset class count) and the field. A file that is not parquet, or whose columns are not the
 * ones the exporter declares, is a finding too: the command exits 1 naming it instead of failing on the reader.
 */
export async function lintVerlExport(dir: string, m: SftManifest): Promise<LintFinding[]> {
  const file = m.files[0]!.path;
  const ids = new Map(m.records.filter((r) => r.file === file).map((r) => [r.index, r.recordId]));
  const finding = (recordId: string, code: string, message: string): LintFinding => ({
    recordId,
    severity: 'error',
    code,
    message,
  });
  let buffer: Awaited<ReturnType<typeof asyncBufferFromFile>>;
  let meta: FileMetaData;
  try {
    buffer = await asyncBufferFromFile(path.join(dir, file));
    meta = await parquetMetadataAsync(buffer);
  } catch (e) {
    return [finding(file, 'unreadable_parquet', `${file}: not a readable parquet file: ${(e as Error).message}`)];
  }
  const out: LintFinding[] = [];
  const want = columnsOf(verlSchema(m.options));
  const got = columnsOf(meta.schema);
  if (want !== got)
    out.push(finding(file, 'parquet_schema', `${file}: the columns are ${got}; the verl export declares ${want}`));
  const spec = DIALECTS.verl;
  let row = 0;
  for (const group of meta.row_groups) {
    const rowEnd = row + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({
        file: buffer,
        metadata: meta,
        rowStart: row,
        rowEnd,
        compressors: COMPRESSORS,
      });
    } catch (e) {
      out.push(finding(file, 'unreadable_parquet', `${file} rows ${row}–${rowEnd - 1}: ${(e as Error).message}`));
      row = rowEnd;
      continue;
    }
    for (const r of rows) {
      const recordId = ids.get(row) ?? `${file}:row ${row}`;
      for (const i of spec.lint(r)) out.push({ recordId, ...i, message: `${file} row ${row}: ${i.message}` });
      row++;
    }
  }
  if (row !== m.report.exported)
    out.push(finding(file, 'row_count', `${row} rows; the manifest says ${m.report.exported}`));
  return out;
}

/** The column tree as one line (`messages(list(element(role,…)))`): names and nesting, what the readers key on. */
function columnsOf(schema: { name: string; num_children?: number }[]): string {
  let at = 0;
  const node = (): string => {
    const e = schema[at++];
    if (!e) return '?';
    const kids = Array.from({ length: e.num_children ?? 0 }, node);
    return kids.length ? `${e.name}(${kids.join(',')})` : e.name;
  };
  const root = schema.length ? node() : '';
  // The root's own name is the writer's choice ("root", "schema"): only its children count.
  return root.slice(root.indexOf('(') + 1, -1) || '(none)';
}
