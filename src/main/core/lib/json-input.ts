/**
 * How deep JSON input may nest. Every walker of parsed values here (writers, copies, schemas)
 * recurses, and so does Python's json module (it stops near 1,000); real data nests a few levels.
 */
export const MAX_JSON_DEPTH = 512;

/** "LINE:COL" (1-based) of a character offset. */
export function lineCol(text: string, at: number): string {
  const before = text.slice(0, at);
  let line = 1;
  for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
  return `${line}:${at - before.lastIndexOf('\n')}`;
}

/** Whether text holds at most `max` opening brackets, strings included: then it cannot nest past `max`. */
function fewBrackets(text: string, max: number): boolean {
  let n = 0;
  for (let i = text.indexOf('['); i !== -1 && n <= max; i = text.indexOf('[', i + 1)) n++;
  for (let i = text.indexOf('{'); i !== -1 && n <= max; i = text.indexOf('{', i + 1)) n++;
  return n <= max;
}

/**
 * Offset of the bracket that opens level MAX_JSON_DEPTH + 1 (strings skipped), or -1. Every imported
 * trajectory record passes through it, so it is made cheap: most input has fewer brackets than the
 * limit at all (every corpus record does; counted natively, ~1/30 of a JSON.parse), and the scan
 * skips strings with the native indexOf (a char-by-char loop took 2–3× a JSON.parse, this ~1/3).
 */
export function tooDeepAt(text: string, max = MAX_JSON_DEPTH): number {
  if (fewBrackets(text, max)) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // The closing quote is the first one preceded by an even number of backslashes.
      let q = text.indexOf('"', i + 1);
      for (;;) {
        if (q === -1) return -1;
        let b = q - 1;
        while (text.charCodeAt(b) === 92) b--;
        if ((q - 1 - b) % 2 === 0) break;
        q = text.indexOf('"', q + 1);
      }
      i = q;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/**
 * Parses JSON text and, on failure, names the source with line and column (Node reports only a
 * position). Valid JSON nested deeper than MAX_JSON_DEPTH is refused too, saying so.
 */
export function parseJsonText(
  text: string,
  source: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    const value: unknown = JSON.parse(text);
    const deep = typeof value === 'object' && value !== null ? tooDeepAt(text) : -1;
    if (deep >= 0)
      return { ok: false, message: `${source}:${lineCol(text, deep)}: nested deeper than ${MAX_JSON_DEPTH} levels` };
    return { ok: true, value };
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    // V8 gives no position for "Unexpected token 'x', "…" is not valid JSON" (Node 20): find it.
    const at = pos ? Number(pos[1]) : firstBadOffset(text);
    const reason = msg.replace(/ in JSON at position \d+.*$/s, '').replace(/, .*is not valid JSON$/s, '');
    return { ok: false, message: `${source}:${lineCol(text, at)}: not valid JSON (${reason})` };
  }
}

/**
 * Offset of the first character JSON.parse rejects. A prefix that parses, or fails only because the
 * text ran out, holds no error, and every shorter prefix of it neither: binary-search the longest.
 */
function firstBadOffset(text: string): number {
  const clean = (n: number) => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (err) {
      const msg = (err as Error).message;
      const pos = /position (\d+)/.exec(msg);
      return /Unexpected end of JSON input/.test(msg) || (pos !== null && Number(pos[1]) >= n);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (clean(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
