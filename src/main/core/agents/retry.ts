/**
 * Our own retry for model requests. The openai package's retries wait on Retry-After with no cap
 * and ignore an abort during the wait (reference/stack.md), so the client runs with maxRetries: 0
 * and this decides: which failures are retried (429, 5xx, transport), how long to wait (the
 * server's Retry-After up to a cap, else exponential backoff with jitter) and waits abortably.
 */
export type RetryPolicy = {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff step, ms; doubles per retry. */
  baseDelayMs: number;
  /** Largest backoff step, ms. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the request fails at once, saying so. */
  retryAfterCapMs: number;
  /** Retry a request that ran past its timeout (off by default: a slow model stays slow, and callers decide). */
  retryTimeouts: boolean;
};

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  retryAfterCapMs: 30_000,
  retryTimeouts: false,
};

/**
 * The wait a server asked for, in ms: `retry-after-ms` (OpenAI's), else `retry-after` as seconds
 * (fractions allowed) or as an HTTP date. undefined when absent or unreadable.
 */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const v = headers.get('retry-after')?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with "equal jitter": half the step fixed, half random, so retries spread out. */
export function backoffMs(
  retry: number,
  p: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const step = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** The reason an abort carries, as an Error. */
export const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? 'aborted'));

/** setTimeout as a promise that rejects the moment `signal` aborts (and clears its timer). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
