import { useEffect, useState } from 'react';

export type TextQuery = { query: string; mode: 'words' | 'fts' };

/**
 * The full-text box: message text (user and assistant text, reasoning, tool calls, tool errors)
 * through SQLite FTS5. "words": every word must occur (a trailing * for prefixes); "FTS5": the
 * query syntax itself (phrases, OR, NOT, NEAR). Applied on Enter; Escape clears.
 */
export function TextSearch({ value, onChange }: { value: TextQuery | null; onChange(v: TextQuery | null): void }) {
  const [text, setText] = useState(value?.query ?? '');
  const [mode, setMode] = useState<TextQuery['mode']>(value?.mode ?? 'words');
  useEffect(() => setText(value?.query ?? ''), [value]);
  const apply = (q = text, m = mode) => onChange(q.trim() ? { query: q.trim(), mode: m } : null);
  return (
    <form className="text-search" onSubmit={(e) => (e.preventDefault(), apply())} data-testid="text-search">
      <input
        type="search"
        placeholder="Search message text (FTS5)…"
        aria-label="Search message text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && (setText(''), onChange(null))}
      />
      <select
        aria-label="Search mode"
        value={mode}
        onChange={(e) => {
          const m = e.target.value as TextQuery['mode'];
          setMode(m);
          if (value) apply(text, m);
        }}
      >
        <option value="words">all words</option>
        <option value="fts">FTS5 syntax</option>
      </select>
      <button type="submit">Search</button>
    </form>
  );
}
