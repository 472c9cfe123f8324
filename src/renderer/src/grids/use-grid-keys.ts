import { useEffect, useRef } from 'react';

/** A key the user typed into a text field belongs to that field, not to the grid's shortcuts. */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el?.tagName) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit'].includes(type);
  }
  return false;
}

/**
 * Page-wide shortcuts of the grid on this page: Ctrl/Cmd+Z works wherever the focus is (a button,
 * the page, a cell), except while typing in a field or editing a cell, where the field's own undo
 * applies. `keys` maps a lower-case key to its action.
 */
export function useGridKeys(keys: Record<string, () => void>, enabled = true): void {
  const ref = useRef(keys);
  ref.current = keys;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || typingIn(e.target)) return;
      if (document.querySelector('.dialog-backdrop')) return; // a modal dialog owns the keyboard
      const action = ref.current[e.key.toLowerCase()];
      if (!action) return;
      e.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
