import type { AnyEvent } from '../../src/shared/contract';

type EventSource = { on(listener: (e: AnyEvent) => void): () => void };

/** Resolves with the first event matching `pred` (the test's timeout bounds the wait). */
export function nextEvent(events: EventSource, pred: (e: AnyEvent) => boolean): Promise<AnyEvent> {
  return new Promise((resolve) => {
    const off = events.on((e) => {
      if (pred(e)) {
        off();
        resolve(e);
      }
    });
  });
}

/** Collects every event from now on. */
export function recordEvents(events: EventSource): { list: AnyEvent[]; stop: () => void } {
  const list: AnyEvent[] = [];
  const stop = events.on((e) => void list.push(e));
  return { list, stop };
}

export const isTableChange = (table: string) => (e: AnyEvent) =>
  e.event === 'table.changed' && e.payload.table === table;
