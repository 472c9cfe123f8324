import fs from 'node:fs';
import type { ImportFormat } from '../../../../shared/contract/entities/trajectory-row';

/** How a file holds its records. */
export type Container = 'jsonl' | 'array' | 'object' | 'whole';
export type FileFormat = Exclude<ImportFormat, 'auto'>;
export type Sniffed = { format: FileFormat; container: Container } | { error: string };

const PREFIX = 1 << 20;
const TRACE_EVENTS = /^(trace_start|message|tool_dispatch|audit_snapshot|media_load|compact|trace_end|grading_result)$/;

/** Which format a parsed record looks like, by its keys. */
function formatOfRecord(v: unknown): FileFormat | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const r = v as Record<string, unknown>;
  if (typeof r.type === 'string' && TRACE_EVENTS.test(r.type) && 'trace_id' in r) return 'claw-eval';
  if ('simulations' in r) return 'tau2';
  if ('traj' in r) return 'tau-bench';
  if ('conversations' in r) return 'sharegpt';
  if ('messages' in r) return 'openai-jsonl';
  return null;
}

/** The first key among `keys` that appears as a member name (an unescaped quote before it) in text. */
function firstKey(text: string, keys: string[]): string | null {
  let best: { key: string; at: number } | null = null;
  for (const key of keys) {
    const m = new RegExp(`(^|[^\\\\])"${key}"\\s*:`).exec(text);
    if (m && (!best || m.index < best.at)) best = { key, at: m.index };
  }
  return best?.key ?? null;
}

const BY_KEY: Record<string, FileFormat> = {
  traj: 'tau-bench',
  conversations: 'sharegpt',
  messages: 'openai-jsonl',
  simulations: 'tau2',
};

/**
 * Tells a file's format and container from its first MB (`format` when the user named one). A
 * first line that parses decides by its keys; otherwise (pretty-printed JSON, a huge first
 * record) the member names seen in the prefix do.
 */
export function sniff(file: string, format: ImportFormat): Sniffed {
  // Non-blocking and checked after opening: a FIFO put where the listed file was would block the read forever.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  let text: string;
  try {
    if (!fs.fstatSync(fd).isFile()) return { error: 'not a regular file; only files are read' };
    const buf = Buffer.allocUnsafe(PREFIX);
    const n = fs.readSync(fd, buf, 0, PREFIX, 0);
    text = buf.toString('utf8', 0, n).replace(/^\uFEFF/, '');
  } finally {
    fs.closeSync(fd);
  }
  const body = text.trimStart();
  if (!body) return { error: 'the file is empty' };
  const lead = body[0];
  if (lead !== '{' && lead !== '[')
    return { error: `not JSON or JSON Lines: it starts with ${JSON.stringify(body.slice(0, 20))}` };
  const nl = body.indexOf('\n');
  let first: unknown;
  try {
    first = JSON.parse(nl === -1 ? body : body.slice(0, nl));
  } catch {
    first = undefined;
  }
  const named = format === 'auto' ? null : format;
  if (lead === '[') {
    const key = firstKey(body, ['traj', 'conversations', 'messages']);
    const detected = named ?? (key ? BY_KEY[key]! : null);
    if (!detected)
      return { error: 'a JSON array whose records have none of traj, conversations, messages: give --format' };
    if (detected === 'tau2' || detected === 'claw-eval')
      return { error: `a JSON array, but ${detected} files are not arrays` };
    return { format: detected, container: 'array' };
  }
  const byRecord = first !== undefined ? formatOfRecord(first) : null;
  // A first line that is only "{" is a pretty-printed object, never a JSON Lines record: a results file.
  const pretty = first === undefined && /^\{\s*$/.test(nl === -1 ? body : body.slice(0, nl));
  const key = firstKey(body, ['simulations']) ?? firstKey(body, ['traj', 'conversations', 'messages']);
  const detected = named ?? byRecord ?? (pretty ? 'tau2' : key ? BY_KEY[key]! : null);
  if (!detected) {
    const keys = first && typeof first === 'object' ? Object.keys(first).slice(0, 8).join(', ') : null;
    return {
      error:
        `cannot tell the format${keys ? ` (the first record has keys ${keys})` : ''}: give --format ` +
        `claw-eval|tau-bench|tau2|openai-jsonl|sharegpt`,
    };
  }
  if (detected === 'claw-eval') return { format: detected, container: 'whole' };
  if (detected === 'tau2') return { format: detected, container: 'object' };
  return { format: detected, container: 'jsonl' };
}
