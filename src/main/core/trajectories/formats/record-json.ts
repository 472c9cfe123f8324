import { lineCol, MAX_JSON_DEPTH, tooDeepAt } from '../../lib/json-input';
import { isObj, RecordError } from './record-error';

/**
 * A record's JSON cannot be read: JSON.parse's complaint, or nesting past MAX_JSON_DEPTH, with the
 * line (1-based, within the record) it falls on.
 */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly lineInRecord: number,
  ) {
    super(message);
  }
}

const NESTED = `nested deeper than ${MAX_JSON_DEPTH} levels`;
/** Path segments shown before "…": enough to name the field, not the hundreds of levels below it. */
const SHOWN = 4;

/** `a.b[0][0]…` (at most SHOWN segments). */
function showPath(path: (string | number)[]): string {
  const shown = path
    .slice(0, SHOWN)
    .map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`))
    .join('');
  return path.length > SHOWN ? `${shown}…` : shown;
}

/**
 * The path (keys, indices) to the first container of `v` past MAX_JSON_DEPTH, in document order:
 * it names the field of a refusal. Iterative, with a stack of its own: the value is, by definition,
 * too deep for a walker that recurses (why the limit exists: every writer and copy here recurses).
 */
function pathPastLimit(v: unknown): (string | number)[] {
  const path: (string | number)[] = [];
  const frames: { keys: (string | number)[]; of: Record<string | number, unknown>; next: number }[] = [];
  const push = (o: object) => {
    const keys = Array.isArray(o) ? o.map((_, i) => i) : Object.keys(o);
    frames.push({ keys, of: o as Record<string | number, unknown>, next: 0 });
  };
  if (typeof v === 'object' && v !== null) push(v);
  while (frames.length) {
    const f = frames[frames.length - 1]!;
    if (f.next === f.keys.length) {
      frames.pop();
      path.pop();
      continue;
    }
    const k = f.keys[f.next++]!;
    const x = f.of[k];
    if (typeof x !== 'object' || x === null) continue;
    path.push(k);
    if (path.length >= MAX_JSON_DEPTH) return path;
    push(x);
  }
  return path;
}

/**
 * A record's text → its value. Valid JSON nested deeper than MAX_JSON_DEPTH is refused here, by the
 * same check every JSON input of the app passes (json-input.ts): stored, it made trajectories.get
 * overflow the stack (INTERNAL "Maximum call stack size exceeded"). JSON.parse itself does not recurse.
 */
export function parseRecordJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    let line = 1;
    if (pos) for (let i = Number(pos[1]) - 1; i >= 0; i--) if (text.charCodeAt(i) === 10) line++;
    const cut = /Unexpected end of JSON input|Unterminated string/.test(msg) ? ' — the record looks truncated' : '';
    throw new JsonSyntaxError(`not valid JSON: ${msg}${cut}`, line);
  }
  const deep = typeof value === 'object' && value !== null ? tooDeepAt(text) : -1;
  if (deep >= 0) throw new JsonSyntaxError(`${showPath(pathPastLimit(value))}: ${NESTED}`, lineInText(text, deep));
  return value;
}

const lineInText = (text: string, at: number) => Number(lineCol(text, at).split(':')[0]);

/**
 * Nesting past the limit in a member of a file's header (a τ² results file's `info`, `tasks`…),
 * parsed on its own: the message naming `key` and the path, and the line within `text`; null when fine.
 */
export function headerTooDeep(key: string, text: string, value: unknown): { line: number; message: string } | null {
  const deep = typeof value === 'object' && value !== null ? tooDeepAt(text) : -1;
  if (deep < 0) return null;
  return { line: lineInText(text, deep), message: `${showPath([key, ...pathPastLimit(value)])}: ${NESTED}` };
}

/**
 * JSON that a record holds as a string (tool-call arguments, a sharegpt function_call or tools
 * string) and that is stored parsed: nesting past the limit refuses the record, naming `field`, as
 * it would be nested past the limit once stored. JSON.parse's own errors are the caller's to judge.
 */
export function parseJsonString(text: string, field: string): unknown {
  const value: unknown = JSON.parse(text);
  if ((isObj(value) || Array.isArray(value)) && tooDeepAt(text) >= 0)
    throw new RecordError(field, `the JSON it holds is ${NESTED} (at ${showPath(pathPastLimit(value))})`);
  return value;
}
