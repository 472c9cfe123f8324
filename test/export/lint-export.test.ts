import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { exportSft, lintExport, lintWrittenExport, parseSftOptions } from '../../src/main/core/export/sft';
import { verlSchema } from '../../src/main/core/export/sft/verl-parquet';
import { runCliCaptured } from '../helpers/transports';
import { tempDir } from '../helpers/temp';
import { agentRun, rec, trajectory } from './build';

const records = (n: number) =>
  Array.from({ length: n }, (_, i) => rec(trajectory(`r${i}`, agentRun(`r${i}`, 5, 5 + (i % 3)))));

describe('re-linting a written export', () => {
  it('finds nothing wrong in what the exporter wrote, for each JSONL dialect', () => {
    for (const dialect of ['trl', 'openai', 'llamafactory'] as const) {
      const out = path.join(tempDir(), dialect);
      exportSft({ records: records(5), dialect, outDir: out });
      expect(lintExport(out), dialect).toEqual([]);
    }
  });

  it("names the record and the trainer's rule for every line a hand edit broke", () => {
    const out = path.join(tempDir(), 'lf');
    exportSft({ records: records(3), dialect: 'llamafactory', outDir: out });
    const file = path.join(out, 'coworkenv_sft.jsonl');
    const [a, b, c] = fs.readFileSync(file, 'utf8').trimEnd().split('\n') as [string, string, string];
    const row = JSON.parse(b) as { conversations: { from: string; value: string }[] };
    row.conversations.splice(1, 1); // a function_call removed: the observation now sits on an odd position
    const args = JSON.parse(c) as { conversations: { from: string; value: string }[] };
    const call = args.conversations[1]!;
    call.value = JSON.stringify({ name: 'lookup', arguments: JSON.stringify({ id: 'r0' }) }); // double-encoded
    fs.writeFileSync(file, `${a}\n${JSON.stringify(row)}\n${JSON.stringify(args)}\n{"conversations": [\n`);
    const findings = lintExport(out);
    const codes = (id: string) => [...new Set(findings.filter((f) => f.recordId === id).map((f) => f.code))].sort();
    expect(codes('r0')).toEqual([]);
    expect(codes('r1')).toEqual(expect.arrayContaining(['alternation', 'odd_count']));
    expect(codes('r2')).toEqual(['arguments_not_object']);
    expect(findings.find((f) => f.code === 'unparseable_line')!.message).toMatch(/^coworkenv_sft\.jsonl:4:/);
    expect(findings.find((f) => f.code === 'row_count')!.message).toBe('4 lines; the manifest says 3');
  });
});

const GUNZIP = { GZIP: (b: Uint8Array) => new Uint8Array(zlib.gunzipSync(b)) };

describe("re-linting a verl export (train.parquet re-read with verl's rules)", () => {
  type Row = { messages: Record<string, unknown>[]; tools: Record<string, unknown>[] };
  const exported = async (n: number) => {
    const out = path.join(tempDir(), 'verl');
    exportSft({ records: records(n), dialect: 'verl', outDir: out });
    const file = path.join(out, 'train.parquet');
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors: GUNZIP })) as Row[];
    return { out, file, rows };
  };
  /** Rewrites train.parquet with the exporter's own schema (or another one) around hand-edited rows. */
  const rewrite = (file: string, rows: Row[], schema = verlSchema(parseSftOptions({}))) => {
    const names = schema.filter((e, i) => i > 0 && (e as { num_children?: number }).num_children !== undefined);
    const columnData = ['messages', 'tools']
      .filter((c) => names.some((e) => e.name === c))
      .map((name) => ({ name, data: rows.map((r) => r[name as keyof Row]) }));
    fs.writeFileSync(file, new Uint8Array(parquetWriteBuffer({ columnData, schema: schema as never })));
  };

  it('finds nothing wrong in what the exporter wrote; the CLI exits 0', async () => {
    const { out } = await exported(4);
    expect(await lintWrittenExport(out)).toEqual([]);
    const r = await runCliCaptured(['export', 'lint', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('4 records: 0 errors, 0 warnings');
  });

  it('names the record, the file, the row and the field a hand edit broke; the CLI exits 1', async () => {
    const { out, file, rows } = await exported(4);
    const call = (rows[1]!.messages[1]!.tool_calls as { function: { arguments: string } }[])[0]!;
    call.function.arguments = '{"id": "r1"'; // cut short
    rows[2]!.messages[2]!.tool_call_id = null; // a result that answers nothing
    rewrite(file, rows.slice(0, 3));
    const findings = await lintWrittenExport(out);
    const of = (id: string) => findings.filter((f) => f.recordId === id).map((f) => `${f.code}: ${f.message}`);
    expect(of('r0')).toEqual([]);
    expect(of('r1')).toEqual([
      'arguments_unparseable: train.parquet row 1: messages[1].tool_calls[0].function.arguments is not a JSON ' +
        'object string',
    ]);
    expect(of('r2')).toEqual(['tool_call_id_missing: train.parquet row 2: messages[2] has no tool_call_id']);
    expect(of('train.parquet')).toEqual(['row_count: 3 rows; the manifest says 4']);
    const r = await runCliCaptured(['export', 'lint', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('record r1: error arguments_unparseable: train.parquet row 1: messages[1]');
  });

  it('says so when train.parquet is not parquet, or its columns are not the ones verl reads', async () => {
    const { out, file, rows } = await exported(2);
    fs.writeFileSync(file, 'not parquet at all');
    const [bad] = await lintWrittenExport(out);
    expect(bad).toMatchObject({ recordId: 'train.parquet', code: 'unreadable_parquet' });
    expect(bad!.message).toMatch(/^train\.parquet: not a readable parquet file: /);
    const full = verlSchema(parseSftOptions({}));
    const tools = full.findIndex((e) => e.name === 'tools');
    rewrite(file, rows, [{ ...full[0]!, num_children: 1 }, ...full.slice(1, tools)]);
    const findings = await lintWrittenExport(out);
    expect(findings[0]!.code).toBe('parquet_schema');
    expect(findings[0]!.message).toMatch(/^train\.parquet: the columns are messages\(list\(element\(role,/);
    expect(findings.filter((f) => f.code === 'tools_shape').map((f) => f.recordId)).toEqual(['r0', 'r1']);
  });
});
