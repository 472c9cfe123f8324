import type { ApiResult } from './contract/define';
import type { AnyEvent } from './contract/events';

/** What the preload exposes as window.api: a generic call and an event listener, nothing else. */
export type PreloadApi = {
  call(name: string, input: unknown): Promise<ApiResult<unknown>>;
  /** Returns an unsubscribe function. */
  on(listener: (event: AnyEvent) => void): () => void;
};
