/**
 * Claw-Eval tasks for the mock-service benchmarks, built the way test/helpers/goldens.ts builds
 * them (recorded goldens in ../shared/conformance/claw-eval-goldens, fixtures from the corpus
 * ../shared/corpora/claw-eval, clock frozen at the recorded instant, parity mode), but with the
 * fixture files read and parsed once, so a benchmark can time construction with or without parsing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RouteContext, ServiceDefinition } from '../../src/main/core/services/define';
import { pyIsoTimestamp } from '../../src/main/core/services/define';
import { Environment, type EnvironmentSpec } from '../../src/main/core/services/environment';
import { deepCopy, parsePyJson, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { SERVICE_REGISTRY } from '../../src/main/core/services/registry';
import { modelDefaults, validateBody } from '../../src/main/core/services/request-model';
import { REPO_ROOT, stats, type Stats } from './harness';

const SHARED = path.resolve(REPO_ROOT, '../shared');
export const GOLDENS = path.join(SHARED, 'conformance/claw-eval-goldens');
export const CLAW_ROOT = path.join(SHARED, 'corpora/claw-eval');
export const hasGoldens = (): boolean => fs.existsSync(path.join(GOLDENS, 'index.json')) && fs.existsSync(CLAW_ROOT);

type Meta = {
  instant_iso: string;
  services: {
    name: string;
    declared_port: number;
    fixtures: Record<string, string>;
    health_check?: string;
    health_check_method?: string;
  }[];
  tools: Record<string, { url: string }>;
  calls: { kind: string; outcome: string }[];
};

export type Call = { tool: string; args: PyValue; kind: string; status: number };

export type ClawTask = {
  id: string;
  meta: Meta;
  now: Date;
  /** Every recorded call, with the status upstream answered. */
  calls: Call[];
  /** Fixture file text per service (read once). */
  texts: { id: string; text: string }[];
  /** The same, parsed once (Environment deep-copies records on load and reset, so sharing is safe). */
  records: PyValue[][];
};

export function readTask(id: string): ClawTask {
  const dir = path.join(GOLDENS, id);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Meta;
  const lines = (f: string) =>
    fs
      .readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim());
  const expected = lines('expected.jsonl').map((l) => parsePyJson(l) as { status?: number });
  const calls = lines('calls.jsonl').map((l, i) => {
    const c = parsePyJson(l) as { tool: string; args: PyValue };
    return { tool: c.tool, args: c.args, kind: meta.calls[i]?.kind ?? '?', status: expected[i]?.status ?? 0 };
  });
  const texts = meta.services.map((s) => {
    const rel = Object.values(s.fixtures)[0] ?? SERVICE_REGISTRY.get(s.name)?.defaultFixture ?? '';
    return { id: s.name, text: fs.readFileSync(path.join(CLAW_ROOT, rel), 'utf8') };
  });
  return {
    id,
    meta,
    now: new Date(meta.instant_iso),
    calls,
    texts,
    records: texts.map((t) => parsePyJson(t.text) as PyValue[]),
  };
}

/** The EnvironmentSpec upstream ran, from records already parsed (or parsed now by the caller). */
export function specOf(t: ClawTask, records: PyValue[][]): EnvironmentSpec {
  const now = t.now;
  return {
    now: () => now,
    mode: 'parity',
    services: t.meta.services.map((s, i) => {
      const probe = s.health_check
        ? { method: s.health_check_method ?? 'POST', path: new URL(s.health_check).pathname }
        : undefined;
      return { id: s.name, port: s.declared_port, probe, records: records[i]! };
    }),
    tools: Object.entries(t.meta.tools).map(([name, v]) => ({ name, url: v.url })),
  };
}

export const buildEnv = (t: ClawTask): Environment => new Environment(specOf(t, t.records));

/**
 * Why this task cannot be timed yet (a service missing or a placeholder, or a call answering a
 * status other than upstream's, e.g. 404 from a route not written yet), or undefined when it can.
 */
export function unusable(t: ClawTask, calls: Call[] = t.calls): string | undefined {
  for (const s of t.meta.services) {
    const def = SERVICE_REGISTRY.get(s.name);
    if (!def) return `service ${s.name} is not in the registry`;
    if (Object.keys(def.routes).length === 0) return `service ${s.name} is still a placeholder (no routes)`;
  }
  const env = buildEnv(t);
  for (const c of calls) {
    const d = env.call(c.tool, c.args);
    if (d.status !== c.status) return `${c.tool} ${JSON.stringify(c.args)} answers ${d.status}, upstream ${c.status}`;
  }
  return undefined;
}

/** The first `n` recorded calls that upstream answered 200 (reads and writes), cycling if fewer. */
export function firstOk(t: ClawTask, n: number): Call[] {
  const ok = t.calls.filter((c) => c.status === 200 && t.meta.tools[c.tool]);
  return ok.length ? Array.from({ length: n }, (_, i) => ok[i % ok.length]!) : [];
}

/** One call per tool: the first `valid` recorded call of each tool that upstream answered 200. */
export function oneCallPerTool(t: ClawTask): Call[] {
  const seen = new Set<string>();
  return t.calls.filter(
    (c) => c.kind === 'valid' && c.status === 200 && t.meta.tools[c.tool] && !seen.has(c.tool) && seen.add(c.tool),
  );
}

export const kindOf = (tool: string): 'list' | 'get' | 'write' =>
  /_(list|search)|_get_user_events|_get_events/.test(tool) ? 'list' : /_get(_|$)/.test(tool) ? 'get' : 'write';

/**
 * The baseline of comparable trivial work: a call's route handler invoked directly on freshly
 * loaded state with its already-validated body: no dispatch, validation, audit, or (de)serialising.
 */
export function directHandlers(t: ClawTask, calls: Call[]) {
  const now = t.now;
  type Bound = { svc: number; run: (ctx: RouteContext<unknown>) => PyValue };
  const bound: Bound[] = calls.map((c) => {
    const u = new URL(t.meta.tools[c.tool]!.url);
    const svc = t.meta.services.findIndex((s) => s.declared_port === Number(u.port));
    const def = SERVICE_REGISTRY.get(t.meta.services[svc]!.name)!;
    const route = def.routes[u.pathname];
    if (!route) throw new Error(`${t.id}: ${c.tool}: no route ${u.pathname}`);
    const v = validateBody(
      route.model,
      c.args,
      route.noBody === 'defaults' ? modelDefaults(route.model) : route.noBody,
    );
    if (!v.ok) throw new Error(`${t.id}: ${c.tool}: body does not validate`);
    return { svc, run: (ctx) => route.handle(v.value, ctx) };
  });
  const defs = t.meta.services.map((s) => SERVICE_REGISTRY.get(s.name)! as ServiceDefinition);
  const actions: PyObject[] = [];
  const contexts = (): RouteContext<unknown>[] =>
    defs.map((def, i) => ({
      state: def.load(t.records[i]!.map(deepCopy), now, []),
      now: () => now,
      timestamp: () => pyIsoTimestamp(now),
      record: (_k: string, v: PyObject) => void actions.push(v),
    }));
  let ctx = contexts();
  return {
    /** Call `i`'s handler on the current state. */
    call: (i: number): PyValue => bound[i]!.run(ctx[bound[i]!.svc]!),
    /** Fresh state from the parsed records (what a reset costs without the audit bookkeeping). */
    reload: (): void => {
      ctx = contexts();
      actions.length = 0;
    },
  };
}

/** Calls between two (untimed) resets in timeCalls, so write tools do not grow the state forever. */
export const BATCH = 500;

/** Sequential calls in batches of BATCH, `between` (untimed) after each batch; latency of each call. */
export function timeCalls(fn: () => unknown, calls: number, between: () => void): { callsPerSec: number; lat: Stats } {
  for (let i = 0; i < Math.min(1000, calls / 5); i++) fn(); // warm-up
  between();
  const lat: number[] = new Array(calls);
  let timed = 0;
  for (let i = 0; i < calls; i++) {
    if (i && i % BATCH === 0) between();
    const t0 = performance.now();
    fn();
    lat[i] = performance.now() - t0;
    timed += lat[i]!;
  }
  return { callsPerSec: (calls / timed) * 1000, lat: stats(lat) };
}
