import fs from 'node:fs';
import type { ImportIssue } from '../../../../shared/contract/entities/trajectory-row';
import { JsonSyntaxError, readRecord, RecordError, TraceRecordError, type FormatContext } from '../formats';
import type { FilePosition } from './import-files.repo';
import { unreadable } from './entries';
import { fileItems } from './file-items';
import { prepareRecord, type PreparedRow, type taskLookup } from './prepare';
import type { Container, FileFormat } from './sniff';

/** A file as the start handler resolved it (a resumed job re-reads this, so it reads the same files). */
export type ImportFile = {
  path: string;
  size: number;
  mtimeMs: number;
  format: FileFormat | null;
  container: Container | null;
  collection: string;
  /** Why the file cannot be read at all (missing, empty, unknown format). */
  error: string | null;
};

/** What the reader hands the writer: a file's header (τ² results), or a batch to commit with its position. */
export type ParseMessage =
  | { type: 'header'; idx: number; header: Record<string, unknown>; next: FilePosition }
  | {
      type: 'batch';
      idx: number;
      rows: PreparedRow[];
      issues: ImportIssue[];
      records: number;
      refused: number;
      position: FilePosition;
      finished: boolean;
      error: string | null;
    };

/** One file to read: where to start, and its τ² header when a resumed read starts after it. */
export type FileJob = { idx: number; file: ImportFile; position: FilePosition; header: Record<string, unknown> | null };

export type ProduceOptions = {
  runId: number;
  taskId: string | null;
  agent: string | null;
  batchRecords: number;
  batchBytes: number;
  maxRecordBytes: number;
};

const batchOf = (idx: number, position: FilePosition): Extract<ParseMessage, { type: 'batch' }> => ({
  type: 'batch',
  idx,
  rows: [],
  issues: [],
  records: 0,
  refused: 0,
  position,
  finished: false,
  error: null,
});

/** A record's refusal as issues: one per bad trace line, else one naming the field (JSON errors on their own line). */
function issuesOf(err: unknown, file: string, line: number, record: number | null): ImportIssue[] {
  if (err instanceof TraceRecordError) {
    const shown = err.issues.map((i) => ({ file, line: i.line, record, message: i.message }));
    const more = err.count - err.issues.length;
    if (more > 0) shown.push({ file, line, record, message: `${more} further bad lines in this trace (not listed)` });
    return shown;
  }
  if (err instanceof JsonSyntaxError)
    return [{ file, line: line + err.lineInRecord - 1, record, message: err.message }];
  if (err instanceof RecordError) return [{ file, line, record, message: err.message }];
  throw err;
}

/**
 * Reads one file from its position and yields batches of prepared rows (parsed, normalised, graded,
 * hashed) with the position after them; the writer commits each with that position. Pure reading:
 * it runs in the job's thread or in a parse helper thread beside it.
 */
export function* produceFile(
  job: FileJob,
  o: ProduceOptions,
  spec: ReturnType<typeof taskLookup>,
): Generator<ParseMessage> {
  const { idx, file: f } = job;
  const refuse = (message: string): ParseMessage => ({
    ...batchOf(idx, job.position),
    issues: [{ file: f.path, line: null, record: null, message }],
    refused: 1,
    finished: true,
    error: message,
  });
  if (f.error || !f.container || !f.format) return yield refuse(f.error ?? 'unknown format');
  // The file was read when the import started; what it became since is reported as that file's error, not the job's.
  let fd: number;
  try {
    fd = fs.openSync(f.path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return yield refuse(
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file is gone since the import started' : unreadable(err),
    );
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size !== f.size || st.mtimeMs !== f.mtimeMs)
      return yield refuse('the file changed since the import started; import it again to read it');
    let fctx: FormatContext = { file: f.path, header: job.header };
    let b = batchOf(idx, job.position);
    let bytes = 0;
    for (const item of fileItems(fd, f.size, f.container, job.position, o.maxRecordBytes)) {
      if (item.kind === 'header') {
        fctx = { file: f.path, header: item.header };
        yield { type: 'header', idx, header: item.header, next: item.next };
        b.position = item.next;
        continue;
      }
      b.records += item.record !== null ? 1 : 0;
      b.position = item.next;
      if (item.kind === 'bad') {
        b.refused++;
        b.issues.push({ file: f.path, line: item.line, record: item.record, message: item.message });
      } else {
        bytes += item.bytes.length;
        try {
          const normalized = readRecord(f.format, item.bytes.toString('utf8'), fctx);
          const opts = { collection: f.collection, runId: o.runId, contextId: null, file: f.path, line: item.line };
          b.rows.push(prepareRecord(item.bytes, normalized, { ...opts, taskId: o.taskId, agent: o.agent, spec }).row);
        } catch (err) {
          b.refused++;
          b.issues.push(...issuesOf(err, f.path, item.line, item.record));
        }
      }
      if (b.rows.length + b.issues.length >= o.batchRecords || bytes >= o.batchBytes) {
        yield b;
        b = batchOf(idx, b.position);
        bytes = 0;
      }
    }
    b.finished = true;
    yield b;
  } finally {
    fs.closeSync(fd);
  }
}
