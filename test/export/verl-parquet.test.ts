import path from 'node:path';
import zlib from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSft, type SftRecord } from '../../src/main/core/export/sft';
import { verlDialect } from '../../src/main/core/export/sft/dialects/verl.dialect';
import { PyFloat } from '../../src/main/core/py/pyjson';
import { tempDir } from '../helpers/temp';
import { agentRun, callOf, rec, say, trajectory, user } from './build';
import {
  checkManifestHashes,
  corporaPresent,
  corpusRecords,
  type ManifestJson,
  OPEN_POOLS,
  readJson,
  SKIP_REASON,
  sha256,
} from './corpus-records';

type Row = { messages: Record<string, unknown>[]; tools: Record<string, unknown>[] };

const MESSAGES_TYPE =
  'STRUCT("role" VARCHAR, "content" VARCHAR, tool_calls STRUCT(id VARCHAR, "type" VARCHAR, "function" ' +
  'STRUCT("name" VARCHAR, arguments VARCHAR))[], tool_call_id VARCHAR, "name" VARCHAR)[]';
const TOOLS_TYPE =
  'STRUCT("type" VARCHAR, "function" STRUCT("name" VARCHAR, description VARCHAR, parameters VARCHAR))[]';

const GUNZIP = { GZIP: (input: Uint8Array) => new Uint8Array(zlib.gunzipSync(input)) };

/** hyparquet, the second independent reader (GZIP through node:zlib, as written). */
async function readHyparquet(file: string): Promise<Row[]> {
  const buf = await asyncBufferFromFile(file);
  return (await parquetReadObjects({
    file: buf,
    compressors: GUNZIP,
  })) as unknown as Row[];
}

const duck = await DuckDBInstance.create(':memory:');
const conn = await duck.connect();
afterAll(() => {
  conn.closeSync();
  duck.closeSync();
});
const q = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];

function exportVerl(records: SftRecord[], options = {}) {
  const out = path.join(tempDir(), 'verl');
  const res = exportSft({ records, dialect: 'verl', outDir: out, options: { pools: OPEN_POOLS, ...options } });
  return {
    out,
    res,
    file: path.join(out, 'train.parquet'),
    manifest: readJson<ManifestJson>(path.join(out, 'manifest.json')),
  };
}

describe.skipIf(!corporaPresent)(
  `verl parquet on the corpora${corporaPresent ? '' : ` (skipped: ${SKIP_REASON})`}`,
  () => {
    let x: ReturnType<typeof exportVerl>;
    beforeAll(() => {
      x = exportVerl(corpusRecords());
    });

    it('DuckDB sees real nested types: messages and tools are lists of structs, not strings', async () => {
      const cols = await q(`DESCRIBE SELECT * FROM read_parquet('${x.file}')`);
      expect(cols.map((c) => [c.column_name, c.column_type])).toEqual([
        ['messages', MESSAGES_TYPE],
        ['tools', TOOLS_TYPE],
      ]);
    });

    it('DuckDB and hyparquet both read back exactly the rows written (hash per row against the manifest)', async () => {
      checkManifestHashes(x.out, x.manifest);
      const viaDuck = await q(`SELECT to_json(struct_pack(messages, tools)) AS j FROM read_parquet('${x.file}')`);
      const duckRows = viaDuck.map((r) => JSON.stringify(JSON.parse(r.j as string)));
      const hypRows = (await readHyparquet(x.file)).map((r) => JSON.stringify(r));
      const want = x.manifest.records.map((r) => r.sha256);
      expect(duckRows).toHaveLength(x.res.report.exported);
      expect(duckRows.map((r) => sha256(r))).toEqual(want);
      expect(hypRows.map((r) => sha256(r))).toEqual(want);
    });

    it('arguments and parameters are JSON strings of the source objects; verl lint passes every row', async () => {
      const rows = await readHyparquet(x.file);
      let parallel = 0;
      for (const row of rows) {
        expect(verlDialect.lint(row).filter((i) => i.severity === 'error')).toEqual([]);
        for (const t of row.tools)
          expect(typeof JSON.parse((t.function as { parameters: string }).parameters)).toBe('object');
        for (const m of row.messages) {
          expect(m).toHaveProperty('content');
          const calls = m.tool_calls as { function: { arguments: string } }[] | null;
          if (m.role !== 'assistant') expect(calls).toBeNull();
          if ((calls?.length ?? 0) > 1) parallel++;
          for (const c of calls ?? []) expect(typeof JSON.parse(c.function.arguments)).toBe('object');
        }
      }
      expect(parallel).toBeGreaterThan(0);
      const [{ n }] = (await q(
        `SELECT count(*) AS n FROM (SELECT unnest(messages) AS m FROM read_parquet('${x.file}')) WHERE m.role = ` +
          `'tool' AND m.tool_call_id IS NULL`,
      )) as [{ n: string }];
      expect(Number(n)).toBe(0);
    });
  },
);

describe('verl parquet: row groups, heterogeneous arguments and Python floats', () => {
  it('writes row groups of 10,000 rows and keeps arguments whose keys differ from call to call', async () => {
    const records: SftRecord[] = [];
    for (let i = 0; i < 20_001; i++) {
      const c =
        i % 3 === 0
          ? callOf(`c${i}`, { id: `r${i}` })
          : i % 3 === 1
            ? callOf(`c${i}`, { ids: [`a${i}`, `b${i}`], limit: 5 })
            : // The raw string as the model wrote it, with a Python float the parsed side holds as PyFloat.
              {
                ...callOf(`c${i}`, {}),
                function: { name: 'lookup', arguments: `{"id":"r${i}","amount":328.0}` },
                parsed_arguments: { id: `r${i}`, amount: new PyFloat(328) },
              };
      const t = trajectory(`t${i}`, [
        user(`request ${i}`),
        { role: 'assistant', content: null, reasoning: null, tool_calls: [c] },
        { role: 'tool', tool_call_id: c.id, name: 'lookup', content: `result ${i}`, is_error: false },
        say(`done ${i}`),
      ]);
      records.push(rec(t, { taskId: `task-${i}` }));
    }
    const { file, res } = exportVerl(records, { pools: { mixed: { minReward: null, converter: false } } });
    expect(res.report.exported).toBe(20_001);
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(file));
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([10_000, 10_000, 1]);
    const rows = await q(
      `SELECT m.tool_calls[1].function.arguments AS a FROM (SELECT messages[2] AS m FROM read_parquet('${file}')) ` +
        `LIMIT 3`,
    );
    expect(rows.map((r) => r.a)).toEqual([
      '{"id":"r0"}',
      '{"ids":["a1","b1"],"limit":5}',
      '{"id":"r2","amount":328.0}',
    ]);
    const [{ n }] = (await q(`SELECT count(*) AS n FROM read_parquet('${file}')`)) as [{ n: string }];
    expect(Number(n)).toBe(20_001);
  });

  it('an empty export is a valid parquet file with the declared columns', async () => {
    const { file, res } = exportVerl(
      [rec(trajectory('x', agentRun('x', 5, 5)), { reward: null, pool: 'document_extraction' })],
      {
        pools: { document_extraction: { minReward: 0.999, converter: false } },
      },
    );
    expect(res.report.exported).toBe(0);
    const cols = await q(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
    expect(cols.map((c) => c.column_type)).toEqual([MESSAGES_TYPE, TOOLS_TYPE]);
  });
});
