/**
 * Character counting as Python's len() does it (formats.md, global conventions): code points, not
 * UTF-16 units, so a CJK or emoji text measures what the paper's pipeline measured.
 */
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

export function codePoints(s: string): number {
  // Fast path: most text has no astral characters, and a native scan for a high surrogate is cheap.
  return HIGH_SURROGATE.test(s) ? s.length - (s.match(SURROGATE_PAIR)?.length ?? 0) : s.length;
}

/** The first `max` code points of `s`; never splits a surrogate pair. */
export function truncateCodePoints(s: string, max: number): string {
  if (s.length <= max) return s;
  let units = 0;
  let points = 0;
  while (units < s.length && points < max) {
    const c = s.charCodeAt(units);
    const d = s.charCodeAt(units + 1);
    units += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    points++;
  }
  return s.slice(0, units);
}
