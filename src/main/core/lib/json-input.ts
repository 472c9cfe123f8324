/** Parses JSON text and, on failure, names the source with line and column (Node reports only a position). */
export function parseJsonText(text: string, source: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    if (!pos) return { ok: false, message: `${source}: not valid JSON (${msg})` };
    const before = text.slice(0, Number(pos[1]));
    const line = before.split('\n').length;
    const col = Number(pos[1]) - before.lastIndexOf('\n');
    return { ok: false, message: `${source}:${line}:${col}: not valid JSON (${msg.replace(/ in JSON at position \d+.*$/, '')})` };
  }
}
