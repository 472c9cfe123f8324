import path from 'node:path';
import type { ParsedInput } from '../../../../shared/contract';
import { AppError } from '../../lib/errors';
import type { ImportFile, ImportJobInput } from './import.job';
import { MAX_TRACE_BYTES } from '../../../../shared/contract/entities/trace-text';
import { expand, statFile, unreadable } from './entries';
import { sniff } from './sniff';
import { readToolFile } from './tool-file';

/**
 * Records (or issues) per committed batch, and bytes of records: a batch commits in tens of milliseconds.
 * Up to four batches live at once (one committing, two read ahead, one being read), each about twice its
 * bytes once parsed: 32 MB batches put the import's peak memory over 500 MB (bench/trajectory-import).
 */
const BATCH_RECORDS = 2000;
const BATCH_BYTES = 8 * 1024 * 1024;
/** One record larger than this is refused without being held (a JSON.parse of it would need several times it). */
export const MAX_RECORD_BYTES = MAX_TRACE_BYTES;

/**
 * A file's default collection: a Claw-Eval trace's folder (upstream writes one folder per model
 * run, `<model>_<yy-mm-dd-HH-MM>/`); any other file's own name without its extension. Both are the
 * same on every import of the same files, so duplicates are recognised.
 */
export function defaultCollection(file: string, format: string | null): string {
  if (format === 'claw-eval') return path.basename(path.dirname(file)) || 'claw-eval-traces';
  return path.basename(file).replace(/\.(jsonl?|json)$/i, '') || 'imported';
}

/**
 * Resolves an import's files before the job starts (reads only: sizes, dates, the first record of each
 * to tell its format), so a resumed job reads exactly these files. A file that cannot be read is
 * kept in the list with its error: the job reports it, and imports the others.
 */
export function resolveImport(input: ParsedInput<'trajectories.import'>): ImportJobInput {
  // Read before anything starts: a bad tools file (or two definitions of one tool) is the caller's error, at once.
  const tools = input.tools === undefined ? null : readToolFile(path.resolve(input.tools));
  const paths = input.paths.map((p) => path.resolve(p));
  const all = [...new Map(paths.flatMap(expand).map((e) => [e.path, e])).values()];
  if (!all.length)
    throw new AppError('INVALID_INPUT', 'no .json or .jsonl files in the given folders', [
      { path: ['paths'], message: 'no files' },
    ]);
  const files: ImportFile[] = all.map((entry) => {
    const file = entry.path;
    const st = entry.error === null ? statFile(file) : { error: entry.error };
    const failed = (error: string): ImportFile => ({
      path: file,
      size: 'size' in st ? st.size : 0,
      mtimeMs: 'mtimeMs' in st ? st.mtimeMs : 0,
      format: null,
      container: null,
      collection: input.collection ?? defaultCollection(file, null),
      error,
    });
    if ('error' in st) return failed(st.error);
    let s: ReturnType<typeof sniff>;
    try {
      s = sniff(file, input.format);
    } catch (err) {
      return failed(unreadable(err));
    }
    if ('error' in s) return failed(s.error);
    return {
      path: file,
      ...st,
      ...s,
      collection: input.collection ?? defaultCollection(file, s.format),
      error: null,
    };
  });
  const first = path.basename(all[0]!.path);
  return {
    name: all.length > 1 ? `import of ${first} and ${all.length - 1} more` : `import of ${first}`,
    files,
    supersedes: input.supersedes,
    taskId: input.taskId ?? null,
    agent: input.agent ?? null,
    tools,
    collection: input.collection ?? (new Set(files.map((f) => f.collection)).size === 1 ? files[0]!.collection : null),
    batchRecords: BATCH_RECORDS,
    batchBytes: BATCH_BYTES,
    maxRecordBytes: MAX_RECORD_BYTES,
  };
}
