import fs from 'node:fs';
import path from 'node:path';
import { Environment } from '../../src/main/core/services/environment';
import { parsePyJson, type PyValue } from '../../src/main/core/py/pyjson';
import { SERVICE_REGISTRY } from '../../src/main/core/services/registry';
import { CLAW_ROOT, SHARED } from './shared-data';

/** Claw-Eval's services' recorded answers (../shared or the shipped subset: shared-data.ts chooses). */
export { CLAW_ROOT, SHARED };
export const GOLDENS = path.join(SHARED, 'conformance/claw-eval-goldens');
export const hasGoldens = fs.existsSync(path.join(GOLDENS, 'index.json'));

/** index.json's count of recorded calls over the goldens present (1,232 on the full corpus). */
export const goldenCallCount = (): number =>
  (JSON.parse(fs.readFileSync(path.join(GOLDENS, 'index.json'), 'utf8')) as { totals: { calls: number } }).totals.calls;

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
};

export type GoldenTask = {
  id: string;
  meta: Meta;
  calls: { tool: string; args: PyValue }[];
  /** Raw expected lines (parsed with float fidelity). */
  expected: { status: number; body: PyValue; text: string; is_error: boolean }[];
  audit: Record<string, PyValue>;
};

export const goldenTaskIds = (): string[] =>
  hasGoldens
    ? fs
        .readdirSync(GOLDENS)
        .filter((d) => fs.existsSync(path.join(GOLDENS, d, 'meta.json')))
        .sort()
    : [];

export function readGolden(id: string): GoldenTask {
  const dir = path.join(GOLDENS, id);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Meta;
  const lines = (f: string) =>
    fs
      .readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim());
  const calls = lines('calls.jsonl').map((l) => parsePyJson(l) as GoldenTask['calls'][number]);
  const exp = lines('expected.jsonl').map((l) => parsePyJson(l) as Record<string, PyValue>);
  const last = exp.pop() as { audit: Record<string, PyValue> };
  return { id, meta, calls, expected: exp as unknown as GoldenTask['expected'], audit: last.audit };
}

/** The environment upstream ran: the task's services, fixtures resolved against the corpus root, clock frozen. */
export function goldenEnvironment(t: GoldenTask): Environment {
  const now = new Date(t.meta.instant_iso);
  return new Environment({
    now: () => now,
    mode: 'parity',
    services: t.meta.services.map((s) => {
      const def = SERVICE_REGISTRY.get(s.name);
      const rel = Object.values(s.fixtures)[0] ?? def?.defaultFixture ?? '';
      // The task's own health check: its route differs between tasks of one service (rss).
      const probe = s.health_check
        ? { method: s.health_check_method ?? 'POST', path: new URL(s.health_check).pathname }
        : undefined;
      return {
        id: s.name,
        port: s.declared_port,
        probe,
        records: parsePyJson(fs.readFileSync(path.join(CLAW_ROOT, rel), 'utf8')) as PyValue[],
      };
    }),
    tools: Object.entries(t.meta.tools).map(([name, v]) => ({ name, url: v.url })),
  });
}

export const missingServices = (t: GoldenTask) =>
  t.meta.services.map((s) => s.name).filter((n) => !SERVICE_REGISTRY.has(n));
