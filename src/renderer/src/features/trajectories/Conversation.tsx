import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Dispatch, Message, Trajectory } from '../../../../shared/contract/entities/trajectory';
import { MessageView } from './MessageView';

/** Which message an anchor (msg-3, call-3-abc) lies in; null for anchors outside the conversation. */
export const messageOfAnchor = (anchor: string): number | null => {
  const m = /^(?:msg|call)-(\d+)(?:-|$)/.exec(anchor);
  return m ? Number(m[1]) : null;
};

/** Conversations on screen, by their element: how the viewer scrolls to an anchor that is not rendered. */
const revealers = new Set<(anchor: string) => boolean>();

/**
 * Scrolls to an anchor (a check's evidence): a message not rendered yet (virtualized) is scrolled
 * into range first, then the element itself is centred once it is in the DOM.
 */
export function revealAnchor(anchor: string): void {
  for (const reveal of revealers) if (reveal(anchor)) return;
  document.getElementById(anchor)?.scrollIntoView({ block: 'center' });
}

const textOf = (m: Message) =>
  [
    m.content ?? '',
    m.role === 'assistant' ? (m.reasoning ?? '') : '',
    ...(m.role === 'assistant' || m.role === 'user' ? (m.tool_calls ?? []) : []).map(
      (c) => `${c.function.name} ${c.function.arguments}`,
    ),
  ]
    .join('\n')
    .toLowerCase();

/**
 * The conversation in order: system prompt (folded), task and simulated-user turns, assistant turns,
 * results. Only the messages in view (and a few around) are rendered — a 2,000-message trajectory
 * rendered whole took 5–16 s to open (issue 21 item 5; bench/conversation-open.bench.ts); heights
 * are measured as rendered. The browser's find cannot see unrendered messages, so the conversation
 * has its own find box (Enter: next match, scrolled to and marked).
 */
export function Conversation({
  t,
  focus,
  dispatches,
}: {
  t: Pick<Trajectory, 'messages'>;
  focus: ReadonlySet<string>;
  dispatches: Map<string, Dispatch & { index: number }>;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: t.messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 90,
    overscan: 6,
  });
  const [find, setFind] = useState('');
  const [hit, setHit] = useState<{ index: number; n: number; of: number } | null>(null);
  const texts = useMemo(() => t.messages.map(textOf), [t.messages]);
  const pending = useRef<string | null>(null);

  useEffect(() => {
    const reveal = (anchor: string) => {
      const i = messageOfAnchor(anchor);
      if (i === null || i >= t.messages.length || !scroller.current) return false;
      pending.current = anchor;
      v.scrollToIndex(i, { align: 'center' });
      requestAnimationFrame(() => centre(anchor));
      return true;
    };
    const centre = (anchor: string) => {
      if (pending.current !== anchor) return;
      const el = document.getElementById(anchor);
      if (el && scroller.current?.contains(el)) {
        pending.current = null;
        el.scrollIntoView({ block: 'center' });
      } else requestAnimationFrame(() => centre(anchor));
    };
    revealers.add(reveal);
    return () => void revealers.delete(reveal);
  }, [v, t.messages.length]);

  const next = () => {
    const q = find.trim().toLowerCase();
    if (!q) return setHit(null);
    const matches = texts.flatMap((s, i) => (s.includes(q) ? [i] : []));
    if (!matches.length) return setHit({ index: -1, n: 0, of: 0 });
    const after = matches.findIndex((i) => i > (hit?.index ?? -1));
    const k = Math.max(after, 0); // past the last match: the first again
    setHit({ index: matches[k]!, n: k + 1, of: matches.length });
    v.scrollToIndex(matches[k]!, { align: 'start' });
    scroller.current?.scrollIntoView({ block: 'nearest' }); // the box itself may be below the viewer's fold
  };

  return (
    <div className="conversation" data-testid="conversation">
      <div className="conversation-head">
        <h3>Conversation ({t.messages.length} messages)</h3>
        <form onSubmit={(e) => (e.preventDefault(), next())} className="conversation-find">
          <input
            type="search"
            value={find}
            onChange={(e) => (setFind(e.target.value), setHit(null))}
            placeholder="Find in conversation"
            aria-label="Find in conversation"
          />
          {hit && (
            <span className="hint" data-testid="find-count">
              {hit.of ? `${hit.n} of ${hit.of} (message #${hit.index})` : 'no match'}
            </span>
          )}
        </form>
      </div>
      <div className="conversation-scroll" ref={scroller} data-testid="conversation-scroll">
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((item) => (
            <div
              key={item.key}
              data-index={item.index}
              ref={v.measureElement}
              className={hit?.index === item.index ? 'find-hit' : undefined}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
            >
              <MessageView m={t.messages[item.index]!} index={item.index} focus={focus} dispatches={dispatches} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
