import type { AnyEvent, EventName, EventPayload } from '../../../shared/contract/events';

type Listener = (e: AnyEvent) => void;

/** The core's push channel. Transports subscribe once and forward every event. */
export class CoreEvents {
  private listeners = new Set<Listener>();
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get size(): number {
    return this.listeners.size;
  }
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const l of [...this.listeners]) {
      try {
        l({ event, payload } as AnyEvent);
      } catch {
        // A broken subscriber (a closed HTTP stream) must not stop the others.
      }
    }
  }
}
