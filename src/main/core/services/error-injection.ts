import type { PyObject } from '../py/pyjson';

export type ErrorInjection = { rate: number; random: () => number };
export type Injected = { status: 429 | 500; body: PyObject; headers: Record<string, string> } | { delayMs: number };

/**
 * Claw-Eval's error middleware (reference/claw-eval.md §6.3), one decision per request: off unless
 * a rate is configured; then rate_limit / server_error / slow at 0.35 / 0.35 / 0.30. Shared by the
 * in-process dispatcher and the HTTP server so both inject the same way.
 */
export function decideInjection(e: ErrorInjection | undefined): Injected | undefined {
  if (!e || e.rate <= 0 || e.random() >= e.rate) return undefined;
  const pick = e.random();
  if (pick < 0.35) {
    return {
      status: 429,
      headers: { 'retry-after': '2' },
      body: {
        error: 'rate_limit_exceeded',
        message: 'Too many requests. Please retry after a short delay.',
        retry_after_seconds: 2,
      },
    };
  }
  if (pick < 0.7)
    return {
      status: 500,
      headers: {},
      body: { error: 'internal_server_error', message: 'An unexpected error occurred. Please try again.' },
    };
  // "slow": upstream blocks uniform(2, 4) s, then runs the real handler.
  return { delayMs: 2000 + e.random() * 2000 };
}

/** Requests the middleware lets through untouched: audit/reset/health/docs paths, the probe header, non-POST. */
export function exemptFromInjection(
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
): boolean {
  if (/\/(audit|reset|health|docs|openapi\.json)$/.test(path)) return true;
  if (headers['x-health-check'] === '1') return true;
  return method !== 'POST';
}
