import type { z } from 'zod';
import type { PyObject, PyValue } from '../py/pyjson';
import type { RequestModel } from './request-model';

/** What a route handler sees: its service's state, the clock, and the action lists. */
export type RouteContext<S> = {
  state: S;
  /** The injected clock ("now"). */
  now(): Date;
  /** Python's datetime.now(timezone.utc).isoformat() for the injected now. */
  timestamp(): string;
  /** Appends to one of the service's audit action lists; the same object is kept (no copy). */
  record(actionKey: string, value: PyObject): void;
};

export type Route<S> = {
  model: RequestModel;
  /**
   * Body used when the request has no body at all (the health probe). Omit for routes whose body
   * is required (contacts/kb search); `'defaults'` means the model's defaults.
   */
  noBody?: 'defaults' | PyObject;
  /** Returns the response object. A thrown error becomes upstream's plain-text 500 (not logged). */
  handle(req: PyObject, ctx: RouteContext<S>): PyValue;
};

/**
 * One Claw-Eval business mock: its registry entry (reference/claw-eval.md §6.1), how fixture
 * records become state (and are re-read on reset), and its routes (all POST).
 */
export type ServiceDefinition<S = unknown> = {
  id: string;
  port: number;
  fixtureEnv: string;
  /** Root-relative default fixture path, used when a task's service sets no fixture env var. */
  defaultFixture: string;
  /** Claw-Eval's health check route and method for this service. */
  probe: { method: 'POST' | 'GET'; path: string };
  /** Audit action keys after `calls`, in upstream order (§6.18). */
  actionKeys: readonly string[];
  /**
   * A fixture record (lenient: extra fields are kept as they are). Fields built with
   * record-fields.ts helpers (count, email, dateText, enum) tell the fixture grid their type.
   */
  recordSchema: z.ZodType;
  /** The field that identifies a record (unique within a fixture): the fixture grid refuses duplicates. */
  recordKey: string;
  /**
   * What upstream's own code needs of a record: the fields its mock reads as `record["field"]` (at load or in any
   * route). Upstream loads fixtures as plain JSON (no record model), so a record without one of these makes it crash
   * (KeyError: no start-up, or a 500) — the only record fields an import refuses a task for. Everything else that
   * recordSchema says (enum words, e-mail and date formats, counts, fields upstream only copies) is our vocabulary:
   * it binds generated tasks, and an imported task outside it is served as it is, with a warning (fixture-check.ts).
   */
  upstreamReads: readonly string[];
  /** Fields upstream parses when it loads the fixture (gmail, calendar): a value it cannot parse stops the service. */
  parsedAtLoad?: readonly string[];
  /**
   * Further fixture files of the same service (web's WEB_FETCH_FIXTURES), each read like the
   * main one; their record arrays reach `load` as `extra`, in this order.
   */
  extraFixtures?: readonly {
    env: string;
    defaultFixture: string;
    recordSchema: z.ZodType;
    recordKey: string;
    upstreamReads: readonly string[];
  }[];
  /** Builds fresh state from the fixture array(s) (called at start and on every reset). */
  load(records: PyValue[], now: Date, extra: PyValue[][]): S;
  routes: Record<string, Route<S>>;
  /** GET routes other than audit (web's /web/health). */
  getRoutes?: Record<string, (ctx: RouteContext<S>) => PyValue>;
};

export const defineService = <S>(d: ServiceDefinition<S>): ServiceDefinition<S> => d;

/** Python datetime.isoformat() of a UTC instant: microseconds only when non-zero, "+00:00". */
export function pyIsoTimestamp(d: Date): string {
  const t = d.getTime();
  // Every audited call asks, and an episode's clock is pinned: the last instant's text is kept.
  if (t === lastStamp.time) return lastStamp.text;
  const iso = d.toISOString(); // 2026-03-05T09:00:00.123Z (milliseconds only in JS)
  const ms = d.getUTCMilliseconds();
  const text = `${iso.slice(0, 19)}${ms ? `.${String(ms * 1000).padStart(6, '0')}` : ''}+00:00`;
  lastStamp.time = t;
  lastStamp.text = text;
  return text;
}
const lastStamp = { time: Number.NaN, text: '' };
