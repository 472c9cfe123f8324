import { structuredPatch } from 'diff';

/**
 * A unified diff between two texts (jsdiff's structured patch, printed in the usual
 * `--- / +++ / @@` form that `patch` reads), empty when they are equal.
 */
export function unifiedDiff(a: string, b: string, o: { from?: string; to?: string; context?: number } = {}): string {
  if (a === b) return '';
  // jsdiff compares lines with their newline; end both with one so a missing final newline is no change.
  const nl = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);
  const p = structuredPatch(o.from ?? 'before', o.to ?? 'after', nl(a), nl(b), '', '', { context: o.context ?? 3 });
  const range = (start: number, lines: number) => (lines === 1 ? `${start}` : `${start},${lines}`);
  const out = [`--- ${o.from ?? 'before'}`, `+++ ${o.to ?? 'after'}`];
  for (const h of p.hunks)
    out.push(
      `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`,
      ...h.lines.filter((l) => !l.startsWith('\\')),
    );
  return `${out.join('\n')}\n`;
}
