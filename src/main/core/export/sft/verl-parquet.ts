import zlib from 'node:zlib';
import { parquetWriteRows } from 'hyparquet-writer';
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

export function verlSchema(o: SftOptions): SchemaElement[] {
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

/** Rows per row group: bounded memory while writing and reading (stack.md). */
export const ROW_GROUP = 10_000;

/** Writes the rows as they are pulled from `rows`; returns the number written. */
export function writeVerlParquet(file: HashedFile, rows: Iterable<VerlRow>, o: SftOptions, createdBy: string): number {
  let n = 0;
  const counted = (function* () {
    for (const r of rows) {
      n++;
      yield r;
    }
  })();
  const writer = hashedParquetWriter(file);
  const done = parquetWriteRows({
    writer,
    rows: counted,
    columns: [{ name: 'messages' }, { name: 'tools' }],
    schema: verlSchema(o) as never,
    codec: 'GZIP',
    compressors: COMPRESSORS,
    rowGroupSize: ROW_GROUP,
    createdBy,
  });
  if (done instanceof Promise) throw new Error('the parquet writer went asynchronous; this exporter is synchronous');
  return n;
}
