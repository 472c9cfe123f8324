import { toTsv } from '../lib/tsv';
import type { Bounds } from './range';

/** A cell as text for the clipboard: lists as "a, b" (what the grid shows and paste reads back), null as empty. */
export const cellText = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : Array.isArray(v)
      ? v.join(', ')
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** The range's cells as TSV, row by row (no header: a range pastes into a sheet as it looks). */
export function rangeTsv<Row>(b: Bounds, rows: Row[], text: (row: Row, col: string) => string): string {
  return toTsv(rows.map((r) => b.cols.map((c) => text(r, c))));
}

declare global {
  interface Window {
    /** The last text copyLater wrote (e2e tests read it: headless clipboards need permissions). */
    __lastCopy?: string;
  }
}

/**
 * Writes text after the copy event is over (a range that needed rows fetched first). The async
 * Clipboard API needs focus and permission; the text is also kept on window.__lastCopy for tests.
 */
export async function copyLater(text: string): Promise<boolean> {
  window.__lastCopy = text;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
