import type { Route, RouteContext, ServiceDefinition } from './define';
import { pyIsoTimestamp } from './define';
import { deepCopy, dumpsCompact, type PyObject, type PyValue } from '../py/pyjson';
import { modelDefaults, validateBody } from './request-model';

/** One HTTP-shaped answer of a mock: status, and either JSON or upstream's plain text. */
export type ServiceResponse = { status: number; json?: PyValue; text?: string; headers?: Record<string, string> };

/**
 * A running mock service: state, `calls` and action lists, exactly as one upstream FastAPI
 * process holds them. Both the in-process dispatcher and `coworkenv services serve` go through
 * `request`, so the two can never disagree.
 */
export class ServiceInstance<S = unknown> {
  private state!: S;
  private calls: PyObject[] = [];
  private actions: Record<string, PyObject[]> = {};
  private ctx: RouteContext<S> | undefined;

  constructor(
    readonly def: ServiceDefinition<S>,
    private readonly records: PyValue[],
    private readonly now: () => Date,
    /** The records of `def.extraFixtures`, in that order; a missing file counts as empty. */
    private readonly extraRecords: PyValue[][] = [],
    /** Fixed mode only: routes upstream lacks (fixed-mode.ts). */
    private readonly fixedRoutes: Record<string, Route<S>> = {},
  ) {
    this.reset();
  }

  /** Clear the audit, re-read the fixture, re-apply clock-dependent rewriting (§6.2 reset). */
  reset(): void {
    // Each load gets its own copy: handlers mutate state in place.
    const extra = (this.def.extraFixtures ?? []).map((_, i) => (this.extraRecords[i] ?? []).map(deepCopy));
    this.state = this.def.load(this.records.map(deepCopy), this.now(), extra);
    this.calls = [];
    this.actions = Object.fromEntries(this.def.actionKeys.map((k) => [k, []]));
  }

  /**
   * The live state (records after in-place edits), for hashing environment states (GiGPO anchor
   * keys, export/advantages). Read-only by contract: callers must not mutate it.
   */
  snapshot(): unknown {
    return this.state;
  }

  audit(): PyObject {
    const out: PyObject = { calls: this.calls };
    for (const k of this.def.actionKeys) out[k] = this.actions[k]!;
    return out;
  }

  /** `body` undefined = a request without a body (the health probe). */
  request(method: string, path: string, body: PyValue | undefined): ServiceResponse {
    const prefix = `/${this.def.id}`;
    if (method === 'GET' && path === `${prefix}/audit`) return { status: 200, json: this.audit() };
    if (method === 'POST' && path === `${prefix}/reset`) {
      this.reset();
      return { status: 200, json: { status: 'reset' } };
    }
    const ctx = this.context();
    const get = this.def.getRoutes?.[path];
    const route = this.def.routes[path] ?? this.fixedRoutes[path];
    const known = route || get || path === `${prefix}/audit` || path === `${prefix}/reset`;
    if (!known) return { status: 404, json: { detail: 'Not Found' } };
    if (method === 'GET' && get) return { status: 200, json: get(ctx) };
    if (method !== 'POST' || !route) return { status: 405, json: { detail: 'Method Not Allowed' } };
    const noBody = route.noBody === 'defaults' ? modelDefaults(route.model) : route.noBody;
    const v = validateBody(route.model, body, noBody);
    if (!v.ok) return { status: 422, json: { detail: v.detail as unknown as PyValue } };
    let response: PyValue;
    try {
      response = route.handle(v.value, ctx);
    } catch {
      return { status: 500, text: 'Internal Server Error' };
    }
    // Stored by reference, as upstream does: a later in-place mutation shows in this record (Q15).
    this.calls.push({ endpoint: path, request_body: v.value, response_body: response, timestamp: ctx.timestamp() });
    return { status: 200, json: response };
  }

  /**
   * The handlers' context, made once per load (reset) rather than per request: its functions only read the
   * instance, and `state` is the object this load made (handlers mutate it in place; only a reset replaces it).
   */
  private context(): RouteContext<S> {
    if (this.ctx && this.ctx.state === this.state) return this.ctx;
    this.ctx = {
      state: this.state,
      now: this.now,
      timestamp: () => pyIsoTimestamp(this.now()),
      record: (key, value) => {
        const list = this.actions[key];
        if (!list) throw new Error(`${this.def.id}: no audit action key "${key}"`);
        list.push(value);
      },
    };
    return this.ctx;
  }
}

export const responseBodyText = (r: ServiceResponse): string =>
  r.json !== undefined ? dumpsCompact(r.json) : (r.text ?? '');
