import type { JobContext, JobDefinition } from '../../jobs/job-definition';
import type { JobResult } from '../../jobs/job-types';
import { runsRepo, runsWriter } from '../../runs/runs.repo';
import { collectionsWriter } from '../collections.repo';
import { importFilesRepo, importFilesWriter } from './import-files.repo';
import { supersession } from '../supersede';
import { trajectoriesWriter } from '../trajectories-writer.repo';
import { importResult } from './import-result';
import { parseInHelper } from './parse-helper';
import { taskLookup } from './prepare';
import { produceFile, type FileJob, type ImportFile, type ParseMessage, type ProduceOptions } from './produce';
import { TOOL_SET_FORMAT, type ToolSet } from './tool-file';

export type { ImportFile } from './produce';

declare module '../../jobs/job-types' {
  interface JobInputs {
    'trajectories.import': ImportJobInput;
  }
}

export type ImportJobInput = {
  name: string;
  files: ImportFile[];
  supersedes: string[];
  taskId: string | null;
  agent: string | null;
  /** `--tools`: the schemas for records without their own, saved once (a context) and named in the run's settings. */
  tools: ToolSet | null;
  collection: string | null;
  batchRecords: number;
  batchBytes: number;
  maxRecordBytes: number;
};

const TABLES = ['trajectories', 'runs'];
/** Below this much to read, a parse thread costs more to start than it saves. */
const HELPER_MIN_BYTES = 16 * 1024 * 1024;

/**
 * Imports files record by record. Reading (parse, normalise, grade, hash) runs in a parse helper
 * thread beside this one for large imports, inline for small ones; this thread only commits. Each
 * batch — rows, issues, the file's position and counts — commits in one transaction: killed at any
 * point, a resumed job goes on from the last committed position, so nothing is stored twice or lost.
 */
export const importJob: JobDefinition<ImportJobInput, JobResult<'trajectories.import'>> = {
  total: (input) => input.files.reduce((n, f) => n + Math.max(1, f.size), 0),
  run(ctx, input) {
    const runId = ensureRun(ctx, input);
    const runs = importFilesRepo(ctx.db);
    const states = runs.files(runId);
    const offsets: number[] = [];
    input.files.reduce((n, f, i) => ((offsets[i] = n), n + Math.max(1, f.size)), 0);
    const contexts = new Map<number, number>();
    const jobs: FileJob[] = [];
    input.files.forEach((file, idx) => {
      const s = states[idx]!;
      if (s.position.contextId) contexts.set(idx, s.position.contextId);
      if (s.finished) return;
      const header = s.position.contextId ? runs.context(s.position.contextId) : null;
      jobs.push({ idx, file, position: s.position, header });
    });
    const o: ProduceOptions = { runId, ...pick(input) };
    const left = jobs.reduce((n, j) => n + j.file.size - j.position.offset, 0);
    const messages =
      left >= HELPER_MIN_BYTES
        ? parseInHelper(ctx, { jobs, options: o })
        : (function* () {
            const spec = taskLookup(ctx.db);
            for (const j of jobs) yield* produceFile(j, o, spec);
          })();
    for (const m of messages) consume(ctx, input, runId, m, offsets[m.idx]!, contexts);
    const total = importJob.total(input);
    ctx.commitBatch((db) => runsWriter(db).finish(runId, 'done', ctx.now()), total, 'done', TABLES);
    return importResult(ctx.db, runId);
  },
};

const pick = (i: ImportJobInput) => ({
  taskId: i.taskId,
  agent: i.agent,
  batchRecords: i.batchRecords,
  batchBytes: i.batchBytes,
  maxRecordBytes: i.maxRecordBytes,
});

function ensureRun(ctx: JobContext, input: ImportJobInput): number {
  const found = runsRepo(ctx.db).byJob(ctx.jobId);
  if (found) return found.id;
  let id = 0;
  ctx.commitBatch(
    (db) => {
      const w = importFilesWriter(db);
      const now = ctx.now();
      const collections = collectionsWriter(db);
      for (const c of new Set(input.files.map((f) => f.collection)))
        collections.ensureCollection(c, input.supersedes, now);
      const t = input.tools;
      const toolSchemas = t && {
        contextId: w.saveContext(TOOL_SET_FORMAT, JSON.stringify(t)),
        file: t.file,
        sha256: t.sha256,
        tools: t.tools.length,
      };
      id = runsWriter(db).create({
        jobId: ctx.jobId,
        name: input.name,
        agentKind: 'imported',
        agentLabel: input.agent ?? 'imported',
        collection: input.collection,
        settings: {
          format: input.files.map((f) => f.format),
          supersedes: input.supersedes,
          taskId: input.taskId,
          ...(toolSchemas ? { toolSchemas } : {}),
        },
        selection: { files: input.files.map((f) => f.path) },
        now,
      });
      w.addFiles(id, input.files);
    },
    0,
    'starting',
    TABLES,
  );
  return id;
}

/** Commits one message of the reader: a τ² header (its context), or a batch with its file position. */
function consume(
  ctx: JobContext,
  input: ImportJobInput,
  runId: number,
  m: ParseMessage,
  before: number,
  contexts: Map<number, number>,
): void {
  const f = input.files[m.idx]!;
  const progress = `file ${m.idx + 1} of ${input.files.length}: ${f.path}`;
  if (m.type === 'header') {
    const content = JSON.stringify(m.header);
    ctx.commitBatch(
      (db) => {
        const w = importFilesWriter(db);
        const contextId = w.saveContext('tau2-results', content);
        contexts.set(m.idx, contextId);
        w.advanceFile(runId, m.idx, {
          position: { ...m.next, contextId },
          records: 0,
          stored: 0,
          duplicates: 0,
          refused: 0,
        });
      },
      before,
      progress,
      TABLES,
    );
    return;
  }
  const contextId = contexts.get(m.idx);
  const done = before + (m.finished ? Math.max(1, f.size) : m.position.offset);
  ctx.commitBatch(
    (db) => {
      const w = trajectoriesWriter(db);
      const runs = runsWriter(db);
      const files = importFilesWriter(db);
      const now = ctx.now();
      let stored = 0;
      let duplicates = 0;
      let warned = 0;
      const tasks = new Set<string>();
      const rows = contextId ? m.rows.map((r) => ({ ...r, contextId })) : m.rows;
      w.insertAll(rows, now).forEach((res, i) => {
        if (res.duplicate) duplicates++;
        else {
          stored++;
          if (rows[i]!.warnings.length) warned++;
          tasks.add(rows[i]!.taskId);
        }
      });
      for (const i of m.issues) runs.addIssue(runId, i, now);
      files.advanceFile(runId, m.idx, {
        position: contextId ? { ...m.position, contextId } : m.position,
        records: m.records,
        stored,
        duplicates,
        refused: m.refused,
        warned,
        finished: m.finished,
        error: m.error,
      });
      if (tasks.size) supersession(db).afterInsert(f.collection, tasks);
    },
    done,
    progress,
    TABLES,
  );
}
