import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportSft, lintExport } from '../../src/main/core/export/sft';
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

  it('refuses a parquet export with the reason', () => {
    const out = path.join(tempDir(), 'verl');
    exportSft({ records: records(2), dialect: 'verl', outDir: out });
    expect(() => lintExport(out)).toThrow(/needs a parquet reader/);
  });
});
