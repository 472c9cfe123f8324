import { useEffect, useState } from 'react';

/** The grid's quick search: text matched in SQL over the grid's text columns, debounced as the user types. */
export function QuickSearch({
  value,
  onChange,
  placeholder,
}: {
  value: string;
  onChange(v: string): void;
  placeholder: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const t = setTimeout(() => onChange(text), 250);
    return () => clearTimeout(t);
  }, [text, value, onChange]);
  return (
    <input
      type="search"
      className="quick-search"
      placeholder={placeholder}
      aria-label="Quick search"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => e.key === 'Escape' && (setText(''), onChange(''))}
    />
  );
}
