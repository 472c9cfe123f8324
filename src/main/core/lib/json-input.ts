/** Parses JSON text and, on failure, names the source with line and column (Node reports only a position). */
export function parseJsonText(
  text: string,
  source: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    // V8 gives no position for "Unexpected token 'x', "…" is not valid JSON" (Node 20): find it.
    const at = pos ? Number(pos[1]) : firstBadOffset(text);
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const col = at - before.lastIndexOf('\n');
    const reason = msg.replace(/ in JSON at position \d+.*$/s, '').replace(/, .*is not valid JSON$/s, '');
    return { ok: false, message: `${source}:${line}:${col}: not valid JSON (${reason})` };
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
