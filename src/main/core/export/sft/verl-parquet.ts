import zlib from 'node:zlib';
import { ParquetWriter } from 'hyparquet-writer';
import type { SftOptions } from '../../../../shared/contract/entities/export';
import type { VerlRow } from './dialects/verl.dialect';
import type { HashedFile } from './hashed-file';
import { hashedParquetWriter } from './parquet-sink';

/**
 * verl's SFT parquet with an explicit schema (never inferred: a first row group without tool calls
 * would type tool_calls as something else). Lists use the standard 3-level LIST layout, so pyarrow,
 * pandas and DuckDB read `messages` as list<struct<…>> (DESCRIBE: STRUCT(...)[]).
 */
type SchemaElement = {
  name: string;
  type?: 'BYTE_ARRAY';
  converted_type?: 'UTF8' | 'LIST';
  repetition_type?: 'OPTIONAL' | 'REPEATED' | 'REQUIRED';
  num_children?: number;
};

const str = (name: string): SchemaElement[] => [
  { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
];
const group = (name: string, children: SchemaElement[][]): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', num_children: children.length },
  ...children.flat(),
];
const list = (name: string, element: SchemaElement[][]): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  ...group('element', element),
];

export function verlSchema(o: Pick<SftOptions, 'reasoning'>): SchemaElement[] {
  const message = [
    str('role'),
    str('content'),
    list('tool_calls', [str('id'), str('type'), group('function', [str('name'), str('arguments')])]),
    str('tool_call_id'),
    str('name'),
    ...(o.reasoning.mode === 'key' ? [str(o.reasoning.key)] : []),
  ];
  const tool = [str('type'), group('function', [str('name'), str('description'), str('parameters')])];
  return [{ name: 'root', num_children: 2 }, ...list('messages', message), ...list('tools', tool)];
}

/** No ZSTD in Node 20's zlib (stack.md); GZIP is what every parquet reader has. */
const COMPRESSORS = { GZIP: (b: Uint8Array): Uint8Array => zlib.gzipSync(b) };

/**
 * A row group holds at most 10,000 rows (stack.md) and about 64 M characters of row JSON: agent trajectories
 * run to tens of KB a row, and the writer holds a whole group (rows, leaf columns, dictionaries)
 * at once, so a row cap alone lets memory grow with row size.
 */
export const ROW_GROUP = 10_000;
export const GROUP_BYTES = 64 << 20;

/** Writes the rows as they are pulled (each with the length of its JSON); returns the number written. */
export function writeVerlParquet(
  file: HashedFile,
  rows: Iterable<{ row: VerlRow; bytes: number }>,
  o: SftOptions,
  createdBy: string,
): number {
  const pq = new ParquetWriter({
    writer: hashedParquetWriter(file),
    schema: verlSchema(o) as never,
    codec: 'GZIP',
    compressors: COMPRESSORS,
    // Min/max of chat text is no use to any reader (and truncated anyway); computing it cost ~5 % of the export.
    statistics: false,
    createdBy,
  });
  const sync = (r: void | Promise<void>) => {
    if (r instanceof Promise) throw new Error('the parquet writer went asynchronous; this exporter is synchronous');
  };
  let batch: VerlRow[] = [];
  let bytes = 0;
  let n = 0;
  const flush = (force = false) => {
    if (!batch.length && !force) return;
    const columnData = [
      { name: 'messages', data: batch.map((r) => r.messages) },
      { name: 'tools', data: batch.map((r) => r.tools) },
    ];
    sync(pq.write({ columnData, rowGroupSize: Math.max(1, batch.length) }));
    batch = [];
    bytes = 0;
  };
  for (const r of rows) {
    batch.push(r.row);
    bytes += r.bytes;
    n++;
    if (batch.length >= ROW_GROUP || bytes >= GROUP_BYTES) flush();
  }
  // No rows: still one (empty) write, so the file carries the declared columns.
  if (n === 0) flush(true);
  else flush();
  sync(pq.finish());
  return n;
}
