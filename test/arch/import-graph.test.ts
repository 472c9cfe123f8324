import { describe, expect, it } from 'vitest';
import { isRelative, resolveRelative, type SourceFile, sourceFiles } from '../helpers/imports';

/**
 * The import graph of src/, type-only imports included (a type cycle still ties the files together for the
 * reader and the compiler). Complements boundaries.test.ts, which checks packages and transports.
 */
const files = sourceFiles();
const byRel = new Map(files.map((f) => [f.rel, f]));

/** The file a relative specifier names, as TypeScript resolves it (extension or folder index). */
function target(f: SourceFile, spec: string): string | undefined {
  const base = resolveRelative(f, spec);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((p) => byRel.has(p));
}

type Edge = { from: string; to: string; line: number };
const edges: Edge[] = files.flatMap((f) =>
  f.imports.flatMap((r) => {
    const to = isRelative(r.spec) ? target(f, r.spec) : undefined;
    return to ? [{ from: f.rel, to, line: r.line }] : [];
  }),
);

/** Strongly connected components with more than one file (Tarjan), each as a sorted list. */
function cycles(nodes: string[], next: (n: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      scc.push(w);
      if (w === v) break;
    }
    if (scc.length > 1) found.push(scc.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found;
}

const CORE = 'src/main/core/';
/** The first folder (or file) under core/: the layer a file belongs to. */
const area = (rel: string) => (rel.startsWith(CORE) ? rel.slice(CORE.length).split('/')[0]!.replace(/\.ts$/, '') : '');
/** Below every feature: they import only one another (and shared/). py/: Python's JSON and time, as Claw-Eval's. */
const FOUNDATION = new Set(['lib', 'db', 'events', 'logger', 'context', 'py']);
/**
 * The job machinery: it runs bodies handed down by the composition roots and imports no feature. The
 * handlers' context names its runner and key store, so it may import them too.
 */
const JOB_MACHINERY = new Set([...FOUNDATION, 'jobs', 'endpoints']);

/** Why an import goes against the layering, or '' when it does not. */
function againstLayers(e: Edge): string {
  const from = area(e.from);
  const to = area(e.to);
  if (!from || !to || from === to) return '';
  if (to === 'rpc' && e.from !== `${CORE}index.ts`) return 'reaches up to rpc/ (the top: handlers, job registry)';
  if (from === 'context' || from === 'jobs') return JOB_MACHINERY.has(to) ? '' : `${from} imports the feature ${to}`;
  if (FOUNDATION.has(from) && !FOUNDATION.has(to)) return `${from} is a foundation and imports the feature ${to}`;
  if (/\.handlers\.ts$/.test(e.to) && from !== 'rpc')
    return `imports ${to}'s handlers (transport-facing) instead of its functions`;
  return '';
}

/**
 * Imports against the layering that are known and accepted, each with its reason. Keep it short (issue 22:
 * fewer than 10); a new entry needs a reason a reviewer agrees with.
 */
const ACCEPTED: Record<string, string> = {
  'src/main/core/db/migrations/0009-trajectories-v2.ts → src/main/core/trajectories/search-text.ts':
    'a migration backfills search texts once with the same function imports use, so old and new rows match',
  'src/main/core/db/migrations/0021-cjk-search.ts → src/main/core/trajectories/cjk-search.ts':
    'the CJK index is backfilled with the function that fills it for new rows',
  'src/main/core/db/migrations/0021-cjk-search.ts → src/main/core/trajectories/search-text.ts':
    'the CJK index is backfilled from the same search text new rows get',
  'src/main/core/db/migrations/0021-cjk-search.ts → src/main/core/trajectories/load-trajectory.ts':
    'stored trajectories are read the one way the app reads them to backfill their CJK text',
};

describe('import graph', () => {
  it('sees imports (the checks below are only as good as the graph)', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges.some((e) => e.from === 'src/main/job-worker.ts' && e.to === 'src/main/core/rpc/job-registry.ts')).toBe(
      true,
    );
  });

  it('finds a cycle when there is one', () => {
    const g: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
    expect(cycles(Object.keys(g), (n) => g[n] ?? [])).toEqual([['a', 'b', 'c']]);
  });

  it('has no import cycle in src/, type-only imports included', () => {
    const out = new Map<string, string[]>();
    for (const e of edges) out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
    expect(cycles([...byRel.keys()], (n) => out.get(n) ?? [])).toEqual([]);
  });

  it('imports follow the core layering, apart from the accepted few', () => {
    const against = edges
      .map((e) => ({ key: `${e.from} → ${e.to}`, why: againstLayers(e), line: e.line }))
      .filter((x) => x.why && !ACCEPTED[x.key])
      .map((x) => `${x.key} (line ${x.line}): ${x.why}`);
    expect(against).toEqual([]);
    expect(Object.keys(ACCEPTED).length).toBeLessThan(10);
  });
});
