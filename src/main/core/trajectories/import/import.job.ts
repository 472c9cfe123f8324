import fs from 'node:fs';
import type { ImportIssue } from '../../../../shared/contract/entities/trajectory-row';
import type { JobContext, JobDefinition } from '../../jobs/job-definition';
import type { JobResult } from '../../jobs/job-registry';
import { JsonSyntaxError, readRecord, RecordError, TraceRecordError, type FormatContext } from '../formats';
import { runsRepo, runsWriter, type FilePosition, type RunFile } from '../runs.repo';
import { supersession } from '../supersede';
import { trajectoriesWriter } from '../trajectories-writer.repo';
import { fileItems } from './file-items';
import { importResult } from './import-result';
import { prepareRecord, taskLookup, type PreparedRow } from './prepare';
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

export type ImportJobInput = {
  name: string;
  files: ImportFile[];
  supersedes: string[];
  taskId: string | null;
  agent: string | null;
  collection: string | null;
  batchRecords: number;
  batchBytes: number;
  maxRecordBytes: number;
};

const TABLES = ['trajectories', 'runs'];

type Batch = {
  rows: PreparedRow[];
  issues: ImportIssue[];
  records: number;
  refused: number;
  bytes: number;
  position: FilePosition;
};

/**
 * Imports files record by record, committing a batch (rows, issues, the file's position and counts)
 * in one transaction: killed at any point, a resumed job goes on from the last committed position,
 * so nothing is stored twice or lost. Records are read, parsed, graded and prepared outside the
 * transaction; the transaction only inserts.
 */
export const importJob: JobDefinition<ImportJobInput, JobResult<'trajectories.import'>> = {
  total: (input) => input.files.reduce((n, f) => n + Math.max(1, f.size), 0),
  run(ctx, input) {
    const runId = ensureRun(ctx, input);
    const spec = taskLookup(ctx.db);
    const files = runsRepo(ctx.db).files(runId);
    let before = 0;
    input.files.forEach((f, idx) => {
      const state = files[idx]!;
      if (!state.finished) importFile(ctx, input, runId, idx, f, state, before, spec);
      before += Math.max(1, f.size);
    });
    ctx.commitBatch((db) => runsWriter(db).finishRun(runId, 'done', ctx.now()), before, 'done', TABLES);
    return importResult(ctx.db, runId);
  },
};

function ensureRun(ctx: JobContext, input: ImportJobInput): number {
  const found = runsRepo(ctx.db).byJob(ctx.jobId);
  if (found) return found.id;
  let id = 0;
  ctx.commitBatch(
    (db) => {
      const w = runsWriter(db);
      const now = ctx.now();
      for (const c of new Set(input.files.map((f) => f.collection))) w.ensureCollection(c, input.supersedes, now);
      id = w.createImportRun({
        jobId: ctx.jobId,
        name: input.name,
        agentLabel: input.agent ?? 'imported',
        collection: input.collection,
        settings: { format: input.files.map((f) => f.format), supersedes: input.supersedes, taskId: input.taskId },
        files: input.files,
        now,
      });
    },
    0,
    'starting',
    TABLES,
  );
  return id;
}

function importFile(
  ctx: JobContext,
  input: ImportJobInput,
  runId: number,
  idx: number,
  f: ImportFile,
  state: RunFile,
  before: number,
  spec: ReturnType<typeof taskLookup>,
): void {
  const n = input.files.length;
  const fileIssue = (message: string) => {
    const b = newBatch(state.position);
    b.issues.push({ file: f.path, line: null, record: null, message });
    b.refused = 1;
    commit(ctx, runId, idx, f, b, before + Math.max(1, f.size), true, message, `file ${idx + 1} of ${n}: refused`);
  };
  if (f.error || !f.container || !f.format) {
    fileIssue(f.error ?? 'unknown format');
    return;
  }
  let st: fs.Stats;
  try {
    st = fs.statSync(f.path);
  } catch (err) {
    fileIssue(`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return;
  }
  if (st.size !== f.size || st.mtimeMs !== f.mtimeMs) {
    fileIssue('the file changed since the import started; import it again to read it');
    return;
  }
  const fd = fs.openSync(f.path, 'r');
  try {
    let fctx: FormatContext = {
      file: f.path,
      header: state.position.contextId ? runsRepo(ctx.db).context(state.position.contextId) : null,
    };
    let b = newBatch(state.position);
    let read = state.records;
    const flush = (finished: boolean) => {
      read += b.records;
      const done = before + (finished ? Math.max(1, f.size) : b.position.offset);
      commit(ctx, runId, idx, f, b, done, finished, null, `file ${idx + 1} of ${n}: ${read} records read`);
      b = newBatch(b.position);
    };
    for (const item of fileItems(fd, f.size, f.container, state.position, input.maxRecordBytes)) {
      if (item.kind === 'header') {
        let contextId = 0;
        const content = JSON.stringify(item.header);
        ctx.commitBatch(
          (db) => {
            contextId = runsWriter(db).saveContext('tau2-results', content);
            runsWriter(db).advanceFile(runId, idx, { ...zero(), position: { ...item.next, contextId } });
          },
          before,
          `${f.path}: header read`,
          TABLES,
        );
        fctx = { file: f.path, header: item.header };
        b.position = { ...item.next, contextId };
        continue;
      }
      b.records += item.record !== null ? 1 : 0;
      b.position = { ...item.next, ...(b.position.contextId ? { contextId: b.position.contextId } : {}) };
      if (item.kind === 'bad') {
        b.refused++;
        b.issues.push({ file: f.path, line: item.line, record: item.record, message: item.message });
      } else {
        b.bytes += item.bytes.length;
        const text = item.bytes.toString('utf8');
        try {
          const normalized = readRecord(f.format, text, fctx);
          b.rows.push(
            prepareRecord(item.bytes, normalized, {
              collection: f.collection,
              runId,
              contextId: b.position.contextId ?? null,
              file: f.path,
              line: item.line,
              taskId: input.taskId,
              agent: input.agent,
              spec,
            }).row,
          );
        } catch (err) {
          b.refused++;
          b.issues.push(...issuesOf(err, f.path, item.line, item.record));
        }
      }
      if (b.rows.length + b.issues.length >= input.batchRecords || b.bytes >= input.batchBytes) flush(false);
    }
    flush(true);
  } finally {
    fs.closeSync(fd);
  }
}

const zero = () => ({ records: 0, stored: 0, duplicates: 0, refused: 0 });
const newBatch = (position: FilePosition): Batch => ({
  rows: [],
  issues: [],
  records: 0,
  refused: 0,
  bytes: 0,
  position,
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

function commit(
  ctx: JobContext,
  runId: number,
  idx: number,
  f: ImportFile,
  b: Batch,
  done: number,
  finished: boolean,
  error: string | null,
  progress: string,
): void {
  ctx.commitBatch(
    (db) => {
      const w = trajectoriesWriter(db);
      const runs = runsWriter(db);
      const now = ctx.now();
      let stored = 0;
      let duplicates = 0;
      const tasks = new Set<string>();
      for (const r of b.rows) {
        if (w.insert(r, now).duplicate) duplicates++;
        else {
          stored++;
          tasks.add(r.taskId);
        }
      }
      for (const i of b.issues) runs.addIssue(runId, i, now);
      runs.advanceFile(runId, idx, {
        position: b.position,
        records: b.records,
        stored,
        duplicates,
        refused: b.refused,
        finished,
        error,
      });
      if (tasks.size) supersession(db).afterInsert(f.collection, tasks);
    },
    done,
    progress,
    TABLES,
  );
}
