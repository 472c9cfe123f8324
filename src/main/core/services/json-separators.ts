/**
 * Compact JSON with Python's separators: in compact JSON every ',' and ':' outside a string is a separator, and
 * gets a space after it. One scan by char code (strings skipped whole; a backslash skips the character after it),
 * slices joined once: ~3× faster than a regex replace with a callback per token, on every tool result.
 */
export function spacedSeparators(compact: string): string {
  const parts: string[] = [];
  let last = 0;
  const n = compact.length;
  for (let i = 0; i < n; i++) {
    const c = compact.charCodeAt(i);
    if (c === 34) {
      for (i++; i < n; i++) {
        const d = compact.charCodeAt(i);
        if (d === 34) break;
        if (d === 92) i++;
      }
    } else if (c === 44 || c === 58) {
      parts.push(compact.slice(last, i + 1));
      last = i + 1;
    }
  }
  if (!parts.length) return compact;
  parts.push(compact.slice(last));
  return parts.join(' ');
}
