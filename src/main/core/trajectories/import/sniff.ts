import fs from 'node:fs';
import type { ImportFormat } from '../../../../shared/contract/entities/trajectory-row';
import { FileWindow } from './file-window';
import { arrayElementOffsets, nextLineOffsets, objectKeys, type ObjectKeys } from './sniff-scan';
import { skipWs } from './trailing';

/** How a file holds its records. */
export type Container = 'jsonl' | 'array' | 'object' | 'whole';
export type FileFormat = Exclude<ImportFormat, 'auto'>;
export type Sniffed = { format: FileFormat; container: Container } | { error: string };

const TRACE_EVENTS = /^(trace_start|message|tool_dispatch|audit_snapshot|media_load|compact|trace_end|grading_result)$/;
const WANTED = new Set(['simulations', 'info', 'tasks', 'traj', 'conversations', 'messages', 'trace_id']);
/** A top-level "simulations" settles τ²: its header may be hundreds of MB, and nothing after it matters. */
const DECISIVE = new Set(['simulations']);
const NONE = new Set<string>();
/** Records looked at when the first one does not tell (a JSONL file's first lines, an array's first elements). */
const RECORDS = 16;

/** Which format a record's top-level member names say. */
function formatOfKeys(k: ObjectKeys): FileFormat | null {
  if (k.type !== null && TRACE_EVENTS.test(k.type) && k.seen.has('trace_id')) return 'claw-eval';
  if (k.seen.has('simulations') || (k.seen.has('info') && k.seen.has('tasks'))) return 'tau2';
  if (k.seen.has('traj')) return 'tau-bench';
  if (k.seen.has('conversations')) return 'sharegpt';
  if (k.seen.has('messages')) return 'openai-jsonl';
  return null;
}

const containerOf = (f: FileFormat): Container => (f === 'claw-eval' ? 'whole' : f === 'tau2' ? 'object' : 'jsonl');

/**
 * Tells a file's format and container (`format` when the user named one) by its structure, not by
 * a prefix of bytes: the member names of the first record (a τ² results object's top level, however
 * large its header), then of the next few records when the first does not tell. Values are skipped
 * without being kept, so memory stays at a window of the file whatever its records' sizes.
 */
export function sniff(file: string, format: ImportFormat): Sniffed {
  // Non-blocking and checked after opening: a FIFO put where the listed file was would block the read forever.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { error: 'not a regular file; only files are read' };
    return sniffOpen(fd, st.size, format);
  } finally {
    fs.closeSync(fd);
  }
}

function sniffOpen(fd: number, size: number, format: ImportFormat): Sniffed {
  const w = new FileWindow(fd, 0, size, 0);
  w.fill(0);
  const bom = w.buf[0] === 0xef && w.buf[1] === 0xbb && w.buf[2] === 0xbf;
  const lead = skipWs(w, bom && w.end >= 3 ? 3 : 0);
  if (lead.c === undefined) return { error: 'the file is empty' };
  if (lead.c !== 123 && lead.c !== 91) {
    const start = w.buf.toString('utf8', lead.i, Math.min(w.end, lead.i + 80));
    return { error: `not JSON or JSON Lines: it starts with ${JSON.stringify(start.slice(0, 20))}` };
  }
  const at = w.at(lead.i);
  const named = format === 'auto' ? null : format;
  if (lead.c === 91) {
    const detected = named ?? firstDecided(arrayElementOffsets(fd, size, at, RECORDS), fd, size, arrayRecordFormat);
    if (!detected)
      return { error: 'a JSON array whose records have none of traj, conversations, messages: give --format' };
    if (detected === 'tau2' || detected === 'claw-eval')
      return { error: `a JSON array, but ${detected} files are not arrays` };
    return { format: detected, container: 'array' };
  }
  if (named) return { format: named, container: containerOf(named) };
  // A first line that is only "{" is a pretty-printed object, never a JSON Lines record: a results file.
  if (skipWs(w, lead.i + 1).nl > 0) return { format: 'tau2', container: 'object' };
  const first = objectKeys(fd, size, at, WANTED, DECISIVE);
  const detected =
    formatOfKeys(first) ?? firstDecided(nextLineOffsets(fd, size, at, RECORDS - 1), fd, size, lineRecordFormat);
  if (!detected) {
    const keys = first.complete && first.first.length ? first.first.join(', ') : null;
    return {
      error:
        `cannot tell the format${keys ? ` (the first record has keys ${keys})` : ''}: give --format ` +
        `claw-eval|tau-bench|tau2|openai-jsonl|sharegpt`,
    };
  }
  return { format: detected, container: containerOf(detected) };
}

type RecordFormat = (fd: number, size: number, offset: number) => FileFormat | null;

function firstDecided(offsets: number[], fd: number, size: number, of: RecordFormat): FileFormat | null {
  for (const offset of offsets) {
    const f = of(fd, size, offset);
    if (f) return f;
  }
  return null;
}

/** An array element: only the array formats' keys count (a τ² or Claw-Eval file is never an array). */
const arrayRecordFormat: RecordFormat = (fd, size, offset) => {
  const k = objectKeys(fd, size, offset, WANTED, NONE);
  return k.seen.has('traj') ? 'tau-bench' : k.seen.has('conversations') ? 'sharegpt' : formatOfKeys(k);
};

/** A later JSON Lines record: a line of another shape (blank, broken) is passed over. */
const lineRecordFormat: RecordFormat = (fd, size, offset) => formatOfKeys(objectKeys(fd, size, offset, WANTED, NONE));
