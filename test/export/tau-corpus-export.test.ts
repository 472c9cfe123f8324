import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SftManifest } from '../../src/shared/contract/entities/export';
import { DIALECTS } from '../../src/main/core/export/sft/dialects';
import { makeWorkspaceFile } from '../helpers/files';
import { FULL_DATA } from '../helpers/shared-data';
import { airlineTools, hasTauCorpora, TAU2_FILE, TAU2_SFT_FILE, TAU_FILE, THINK_TOOL } from '../helpers/sft-corpus';
import { type CallSig, rowCalls, tau2Calls, tauBenchCalls } from '../helpers/tau-calls';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

type Obj = Record<string, unknown>;
const GUNZIP = { GZIP: (input: Uint8Array) => new Uint8Array(zlib.gunzipSync(input)) };
const TAU = 'gpt-4o-airline';
const TAU2 = 'gpt-4.1_airline_default_gpt-4.1_1trials';
const SFT = 'train_sft-v1-small';
/** Reasons that mean the data could not be carried, as opposed to a filter that chose to leave it out. */
/** The mixed pool with no reward threshold and no converter: what a record's dialect can carry, nothing filtered. */
const NO_RULE = JSON.stringify({ pools: { mixed: { minReward: null, converter: false } } });
const BROKEN = ['missing_tool_schemas', 'malformed_trajectory', 'unknown_tool', 'unparseable_arguments', 'lint_failed'];

const duck = await DuckDBInstance.create(':memory:');
const conn = await duck.connect();
afterAll(() => {
  conn.closeSync();
  duck.closeSync();
});

/** The rows of a data file as two independent readers see them (JSONL: JSON.parse; parquet: hyparquet and DuckDB). */
async function readRows(file: string): Promise<Obj[][]> {
  if (!file.endsWith('.parquet'))
    return [
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Obj),
    ];
  const hyp = (await parquetReadObjects({
    file: new Uint8Array(fs.readFileSync(file)).buffer,
    compressors: GUNZIP,
  })) as Obj[];
  const res = await conn.runAndReadAll(
    `SELECT to_json(struct_pack(messages, tools)) AS j FROM read_parquet('${file}')`,
  );
  const viaDuck = res.getRowObjectsJson().map((r) => JSON.parse(r.j as string) as Obj);
  return [hyp, viaDuck];
}

// Counts of the full corpora (200 τ-bench + 20 τ² runs, 37 SFT rows): not on the shipped subset.
const SKIP = hasTauCorpora && FULL_DATA ? '' : ' (skipped: needs the full τ corpora, ../shared or COWORKENV_SHARED)';
describe.skipIf(!(hasTauCorpora && FULL_DATA))(
  `τ-bench and τ²-bench results through import --tools and every SFT dialect${SKIP}`,
  () => {
    let ws: string;
    const dir = tempDir('tau-export-');
    const cli = (...argv: string[]) => runCliCaptured(['--workspace', ws, ...argv]);
    const sources = new Map<string, CallSig[]>();
    const exportSft = async (name: string, dialect: string, ...more: string[]) => {
      const out = path.join(dir, name);
      const r = await cli('export', 'sft', '--dialect', dialect, '--out', out, '--all-uncurated', ...more);
      expect(r.code, r.stderr).toBe(0);
      const m = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as SftManifest;
      return { m, out, stdout: r.stdout, readers: await readRows(path.join(out, m.files[0]!.path)) };
    };

    beforeAll(async () => {
      ws = await makeWorkspaceFile();
      for (const [k, v] of tauBenchCalls()) sources.set(`tau-bench/airline/${k}`, v);
      for (const [k, v] of tau2Calls()) sources.set(`tau2/airline/${k}`, v);
      // τ-bench's airline tools: τ²'s airline set (from its own SFT rows) and the `think` tool τ² dropped.
      const tauTools = path.join(dir, 'tau-airline-tools.json');
      fs.writeFileSync(tauTools, JSON.stringify([...airlineTools(), THINK_TOOL]));
      // τ²: the rows of its own SFT file that carry the airline tools, as JSONL records carrying `tools`.
      const rows = fs.readFileSync(TAU2_SFT_FILE, 'utf8').split('\n');
      const tau2Tools = path.join(dir, 'tau2-airline-rows.jsonl');
      fs.writeFileSync(tau2Tools, rows.filter((l) => l.includes('"book_reservation"')).join('\n'));
      for (const [file, tools] of [
        [TAU_FILE, tauTools],
        [TAU2_FILE, tau2Tools],
      ] as const)
        expect((await cli('trajectories', 'import', file, '--tools', tools)).code).toBe(0);
      expect((await cli('trajectories', 'import', TAU2_SFT_FILE)).code).toBe(0);
    }, 300_000);

    it("refuses τ²'s whole SFT file as --tools: get_user_details has an airline and a retail definition", async () => {
      const r = await cli('trajectories', 'import', TAU_FILE, '--collection', 'never', '--tools', TAU2_SFT_FILE);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(
        /get_user_details is defined differently in train_sft-v1-small\.jsonl line \d+ and in train_sft-v1-small/,
      );
    });

    for (const d of ['trl', 'openai', 'llamafactory', 'verl'] as const)
      it(`${d}: every τ-bench and τ² run exported with every tool call of its source, read back`, async () => {
        // No threshold and no converter: what the issue measures is what the dialect can carry, nothing filtered.
        const { m, readers } = await exportSft(
          `all-${d}`,
          d,
          '--collection',
          TAU,
          '--collection',
          TAU2,
          // The tasks are in curation's default pool (mixed): its rule, without threshold and converter.
          '--options',
          NO_RULE,
        );
        expect(m.report.rejections).toEqual({});
        expect(m.report.exported).toBe(220);
        expect(m.toolSchemas?.map((s) => [s.file, s.records])).toEqual([
          ['tau-airline-tools.json', 200],
          ['tau2-airline-rows.jsonl', 20],
        ]);
        for (const rows of readers) {
          expect(rows).toHaveLength(220);
          let complete = 0;
          rows.forEach((row, i) => {
            const rec = m.records[i]!;
            expect(
              DIALECTS[d].lint(row).filter((f) => f.severity === 'error'),
              rec.recordId,
            ).toEqual([]);
            const want = sources.get(`${rec.taskId}/${rec.trial}`)!;
            expect(rowCalls(row), `${rec.taskId}/${rec.trial}`).toEqual(want);
            complete++;
          });
          expect(complete).toBe(220);
        }
      }, 120_000);

    it("with the paper's mixed pool only its filters reject: nothing for want of schemas or malformed", async () => {
      const { m, readers } = await exportSft(
        'mixed-trl',
        'trl',
        '--collection',
        TAU,
        '--collection',
        TAU2,
        '--min-reward',
        '0',
      );
      for (const reason of BROKEN) expect(m.report.rejections[reason], reason).toBeUndefined();
      expect(m.report.exported + m.report.rejected).toBe(220);
      expect(m.report.exported).toBe(readers[0]!.length);
      // Observations are shortened to 1,000 code points there: the calls themselves are all still there.
      readers[0]!.forEach((row, i) =>
        expect(rowCalls(row)).toEqual(sources.get(`${m.records[i]!.taskId}/${m.records[i]!.trial}`)),
      );
    }, 120_000);

    it('the τ² SFT set has no rewards: refused with --min-reward 0, passed through unchanged with none', async () => {
      const zero = await exportSft('sft-zero', 'openai', '--collection', SFT, '--min-reward', '0');
      expect(zero.m.report.rejections.reward_missing?.count).toBe(37);
      const none = await exportSft('sft-none', 'openai', '--collection', SFT, '--options', NO_RULE);
      expect(none.stdout).toContain('37 exported without a reward');
      expect(none.m.rewards).toEqual({
        required: false,
        pools: { mixed: null },
        exportedWithoutReward: 37,
      });
      expect(none.m.toolSchemas).toEqual([{ id: 'own', origin: 'own', file: null, sha256: null, records: 37 }]);
      const lines = fs.readFileSync(TAU2_SFT_FILE, 'utf8').split('\n').filter(Boolean);
      // §3.2's round trip: the same lines, up to key order.
      expect(none.readers[0]).toEqual(lines.map((l) => JSON.parse(l) as Obj));
    }, 120_000);
  },
);
