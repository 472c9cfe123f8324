import type { z } from 'zod';
import { lineCol, parseJsonText } from '../lib/json-input';
import { isObject, parsePyJson, PyJsonError, type PyValue } from '../py/pyjson';
import {
  EVENT_FIELDS,
  EVENT_SCHEMAS,
  EVENT_TYPES,
  MESSAGE_FIELDS,
  type EventType,
  type TraceEvent,
} from './trace-events';

/** One problem of a trace, located by its 1-based line in the file. */
export type TraceIssue = { line: number; message: string };

/** A trace that cannot be read; `issues` lists the first MAX_ISSUES bad lines, `count` how many there are in all. */
export class TraceError extends Error {
  readonly count: number;
  constructor(
    readonly issues: TraceIssue[],
    readonly source = 'trace',
    count?: number,
  ) {
    super(
      issues
        .slice(0, 5)
        .map((i) => `${source} line ${i.line}: ${i.message}`)
        .join('; ') + ((count ?? issues.length) > 5 ? `; ${count ?? issues.length} bad lines in all` : ''),
    );
    this.count = count ?? issues.length;
  }
}

const MAX_ISSUES = 50;

export type ReadEvent = { line: number; event: TraceEvent };

const describeZod = (err: z.ZodError, type: string) =>
  err.issues
    .slice(0, 3)
    .map((i) => {
      const where = [type, ...i.path.map(String)].join('.');
      return `${where}: ${i.message}`;
    })
    .join('; ');

/**
 * Splits JSONL into validated events (reference/claw-eval.md §8). Blank lines are skipped as
 * upstream's reader does. Unknown event types, lines that are not JSON (a run cut mid-write leaves a
 * truncated last line) and events that fail their schema are errors naming the line; all of them
 * are collected before throwing, so one pass shows every bad line. Fields a model does not declare
 * are dropped with a warning, as pydantic ignores them.
 */
export function readTraceEvents(text: string, source = 'trace'): { events: ReadEvent[]; warnings: string[] } {
  const events: ReadEvent[] = [];
  const warnings: string[] = [];
  const issues: TraceIssue[] = [];
  if (text.charCodeAt(0) === 0xfeff) {
    warnings.push(`${source} line 1: a byte-order mark was skipped (traces are UTF-8 without one)`);
    text = text.slice(1);
  }
  const lines = text.split('\n');
  // Every line is checked, so the count is true; only the first MAX_ISSUES are described.
  let badLines = 0;
  const issue = (i: TraceIssue) => {
    if (badLines++ < MAX_ISSUES) issues.push(i);
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (!raw.trim()) continue;
    const line = i + 1;
    let value: PyValue;
    try {
      value = parsePyJson(raw);
    } catch (err) {
      if (err instanceof PyJsonError) {
        issues.push({ line, message: `column ${lineCol(raw, err.offset).split(':')[1]}: ${err.message}` });
        continue;
      }
      const bad = parseJsonText(raw, `${source} line ${line}`);
      const why = bad.ok ? 'not valid JSON' : bad.message.replace(/^.*?: not valid JSON/, 'not valid JSON');
      issue({
        line,
        message:
          why +
          (i === lines.length - 1 || lines.slice(i + 1).every((l) => !l.trim())
            ? ' — the last line looks truncated (a run cut off mid-write?)'
            : ''),
      });
      continue;
    }
    if (!isObject(value)) {
      issue({ line, message: 'not a JSON object' });
      continue;
    }
    const type = value.type;
    if (typeof type !== 'string' || !(EVENT_TYPES as string[]).includes(type)) {
      issue({
        line,
        message: `unknown event type ${JSON.stringify(type ?? null)}; known: ${EVENT_TYPES.join(', ')}`,
      });
      continue;
    }
    const t = type as EventType;
    const parsed = EVENT_SCHEMAS[t].safeParse(value);
    if (!parsed.success) {
      issue({ line, message: describeZod(parsed.error, t) });
      continue;
    }
    const extra = Object.keys(value).filter((k) => !EVENT_FIELDS[t].has(k));
    if (t === 'message' && isObject(value.message))
      extra.push(
        ...Object.keys(value.message)
          .filter((k) => !MESSAGE_FIELDS.has(k))
          .map((k) => `message.${k}`),
      );
    if (extra.length)
      warnings.push(
        `${source} line ${line}: ${t} has field(s) the format does not declare, dropped as upstream's reader drops ` +
          `them: ${extra.join(', ')}`,
      );
    events.push({ line, event: parsed.data as TraceEvent });
  }
  if (badLines) throw new TraceError(issues, source, badLines);
  return { events, warnings };
}
