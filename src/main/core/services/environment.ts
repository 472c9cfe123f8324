import { dumpsPy, wireSnapshot, type PyObject, type PyValue } from '../py/pyjson';
import { ServiceInstance, type ServiceResponse } from './service-instance';
import { SERVICE_REGISTRY } from './registry';
import { FIXED_ROUTES, repairCall, type FixedSwitch } from './fixed-mode';
import { decideInjection, type ErrorInjection } from './error-injection';

/** One tool call as Claw-Eval's dispatcher records it (§7.3), plus what the model is shown. */
export type Dispatch = {
  tool: string;
  args: PyValue;
  endpointUrl: string;
  status: number;
  body: PyValue;
  /** The tool-result text: Python json.dumps(body, ensure_ascii=False) or "Error: …". */
  text: string;
  isError: boolean;
  latencyMs: number;
  /** Injected "slow" responses: how long upstream would have blocked (in-process calls do not sleep). */
  delayMs?: number;
  /** Fixed mode only: the switch that repaired this call (its result is not upstream's). */
  repaired?: FixedSwitch;
};

export type EnvironmentSpec = {
  /** The task's services with their fixture records (already loaded from files). */
  /**
   * `probe`: the task's own health_check (route and method); it overrides the service's default
   * because tasks differ (rss probes /rss/feeds in some tasks, /rss/articles in others).
   * `extraRecords`: the records of the service's `extraFixtures` (web's pages), in that order.
   */
  services: {
    id: string;
    records: PyValue[];
    extraRecords?: PyValue[][];
    port?: number;
    probe?: { method: string; path: string };
  }[];
  /** tool name → endpoint URL, e.g. http://localhost:9100/gmail/messages. */
  tools: { name: string; url: string }[];
  now: () => Date;
  /**
   * parity (default): upstream's behaviour, quirks included. fixed: the documented repairs of
   * fixed-mode.ts, each flagged on the dispatch. Both send Claw-Eval's health probe first, whose
   * side effect is an audit entry (Q4) — that is run semantics, not a broken route.
   */
  mode?: 'parity' | 'fixed';
  errors?: ErrorInjection;
};

/** An unparsable endpoint reaches no service: its calls fail to connect, as upstream's client would. */
const parseUrlParts = (url: string): { port: number; path: string } => {
  if (!URL.canParse(url)) return { port: -1, path: '' };
  const u = new URL(url);
  return { port: Number(u.port || 80), path: u.pathname };
};
/**
 * Parsed once per URL, not once per environment: the env server builds an environment per episode, thousands a
 * second, from the same few tool URLs. Bounded (a workspace has a few hundred distinct tool URLs at most).
 */
const parsedUrls = new Map<string, { port: number; path: string }>();
const urlParts = (url: string) => {
  let p = parsedUrls.get(url);
  if (!p) {
    if (parsedUrls.size >= 10_000) parsedUrls.clear();
    parsedUrls.set(url, (p = parseUrlParts(url)));
  }
  return p;
};

/**
 * A task's environment: every service in-process, dispatch by tool name the way Claw-Eval's
 * dispatcher does, audits, reset. Calls take microseconds: no process, no socket.
 */
export class Environment {
  readonly services = new Map<string, ServiceInstance>();
  private readonly byPort = new Map<number, ServiceInstance>();
  private readonly probes = new Map<ServiceInstance, { method: string; path: string }>();
  /** tool → its URL, parsed once (a tool call is a hot path). */
  private readonly endpoints: Map<string, { url: string; port: number; path: string }>;
  readonly dispatches: Dispatch[] = [];

  constructor(readonly spec: EnvironmentSpec) {
    for (const s of spec.services) {
      const def = SERVICE_REGISTRY.get(s.id);
      if (!def) throw new Error(`unknown service "${s.id}"`);
      const fixedRoutes =
        spec.mode === 'fixed'
          ? Object.fromEntries(Object.entries(FIXED_ROUTES[s.id] ?? {}).map(([path, f]) => [path, f.route]))
          : {};
      const inst = new ServiceInstance(def, s.records, spec.now, s.extraRecords, fixedRoutes);
      this.services.set(s.id, inst);
      this.byPort.set(s.port ?? def.port, inst);
      this.probes.set(inst, s.probe ?? def.probe);
    }
    this.endpoints = new Map(spec.tools.map((t) => [t.name, { url: t.url, ...urlParts(t.url) }]));
    this.probe();
  }

  /** Claw-Eval's readiness probe: a request without a body, exempt from error injection. */
  private probe(): void {
    for (const [inst, p] of this.probes) inst.request(p.method, p.path, undefined);
  }

  /** Between trials: every service resets (no probe: upstream probes only before trial 1). */
  reset(): void {
    for (const inst of this.services.values()) inst.reset();
    this.dispatches.length = 0;
  }

  audits(): Record<string, PyObject> {
    return Object.fromEntries([...this.services].map(([id, inst]) => [id, inst.audit()]));
  }

  /** Raw request to the service listening on `port` (what an HTTP client of `services serve` reaches). */
  request(port: number, method: string, path: string, body: PyValue | undefined): ServiceResponse | undefined {
    return this.byPort.get(port)?.request(method, path, body);
  }

  call(tool: string, args: PyValue): Dispatch {
    const t0 = performance.now();
    const endpoint = this.endpoints.get(tool);
    const url = endpoint?.url;
    const done = (d: Omit<Dispatch, 'tool' | 'args' | 'latencyMs'>) => {
      const out = { tool, args, ...d, latencyMs: d.endpointUrl ? performance.now() - t0 : 0 };
      this.dispatches.push(out);
      return out;
    };
    if (!url) {
      const body = { error: `unknown tool '${tool}'` };
      return done({ endpointUrl: '', status: 404, body, text: `Error: unknown tool '${tool}'`, isError: true });
    }
    const { port, path } = endpoint!;
    const injected = this.inject();
    if (injected && 'status' in injected) return done({ endpointUrl: url, ...injected });
    const delay = injected ? { delayMs: injected.delayMs } : {};
    let target = this.byPort.get(port);
    let body0: PyValue = args ?? {};
    let reqPath = path;
    let repaired: { repaired: FixedSwitch } | object = {};
    if (this.spec.mode === 'fixed') {
      const fix = repairCall(tool, path, body0, (id) => this.services.has(id));
      if (fix.switch) {
        if (fix.service) target = this.services.get(fix.service);
        reqPath = fix.path;
        body0 = fix.args;
        repaired = { repaired: fix.switch };
      } else if (target && FIXED_ROUTES[target.def.id]?.[path])
        repaired = { repaired: FIXED_ROUTES[target.def.id]![path]!.switch };
    }
    const res = target?.request('POST', reqPath, body0);
    if (!res) {
      const msg = 'All connection attempts failed';
      return done({ endpointUrl: url, status: 500, body: { error: msg }, text: `Error: ${msg}`, isError: true });
    }
    // Upstream parses the HTTP body as JSON; a plain-text 500 fails there (§7.3).
    if (res.json === undefined) {
      const msg = 'Expecting value: line 1 column 1 (char 0)';
      return done({
        endpointUrl: url,
        status: 500,
        body: { error: msg },
        text: `Error: ${msg}`,
        isError: true,
        ...delay,
        ...repaired,
      });
    }
    // The body the dispatcher saw is a snapshot of what went over the wire (same as re-parsing it, 30× cheaper).
    const body = wireSnapshot(res.json);
    return done({
      endpointUrl: url,
      status: res.status,
      body,
      text: dumpsPy(body),
      isError: res.status >= 400,
      ...delay,
      ...repaired,
    });
  }

  /** Claw-Eval's error middleware (§6.3); tool calls are POSTs to tool routes, never exempt. */
  private inject(): Omit<Dispatch, 'tool' | 'args' | 'latencyMs' | 'endpointUrl'> | { delayMs: number } | undefined {
    const d = decideInjection(this.spec.errors);
    if (!d || 'delayMs' in d) return d;
    return { status: d.status, body: d.body, text: dumpsPy(d.body), isError: true };
  }
}
