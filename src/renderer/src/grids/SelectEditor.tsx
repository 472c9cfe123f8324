import type { CustomCellEditorProps } from 'ag-grid-react';
import { useEffect, useMemo, useRef, useState } from 'react';

/**
 * A dropdown cell that takes typing, as spreadsheets do: the key that opened the editor starts the
 * search, the list narrows to matches, Enter or Tab takes the highlighted one, arrows move, Esc
 * cancels. (ag-grid's community select editor ignores typed keys.)
 */
export function SelectEditor(props: CustomCellEditorProps & { values: readonly string[] }) {
  const { values, eventKey, value, onValueChange, stopEditing } = props;
  const first = eventKey && eventKey.length === 1 ? eventKey : '';
  const [text, setText] = useState(first);
  const matches = useMemo(() => {
    const t = text.toLowerCase();
    const starts = values.filter((v) => v.toLowerCase().startsWith(t));
    return [...starts, ...values.filter((v) => !starts.includes(v) && v.toLowerCase().includes(t))];
  }, [text, values]);
  const [active, setActive] = useState(() => Math.max(0, first ? 0 : values.indexOf(String(value ?? ''))));
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    const pick = matches[Math.min(active, matches.length - 1)];
    if (pick !== undefined) onValueChange(pick);
  }, [active, matches, onValueChange]);
  return (
    <div className="select-editor">
      <input
        ref={input}
        value={text}
        aria-label="Choose a value"
        onChange={(e) => (setText(e.target.value), setActive(0))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown')
            e.preventDefault(), e.stopPropagation(), setActive((a) => Math.min(a + 1, matches.length - 1));
          else if (e.key === 'ArrowUp') e.preventDefault(), e.stopPropagation(), setActive((a) => Math.max(a - 1, 0));
        }}
      />
      <div role="listbox" className="select-options">
        {matches.map((v, i) => (
          <div
            key={v}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            className={i === active ? 'active' : ''}
            onMouseDown={(e) => (e.preventDefault(), onValueChange(v), setTimeout(() => stopEditing(), 0))}
          >
            {v}
          </div>
        ))}
      </div>
    </div>
  );
}
