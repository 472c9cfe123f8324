import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract, PROCEDURE_NAMES } from '../../src/shared/contract';
import { handlers } from '../../src/main/core/rpc/handlers';
import {
  isNodeBuiltin,
  isRelative,
  packageName,
  resolveRelative,
  scanImports,
  sourceFiles,
  type SourceFile,
} from '../helpers/imports';

/** Third-party packages the core may use; a new dependency fails here until it is added on purpose. */
const CORE_PACKAGES = [
  ...['zod', 'better-sqlite3', 'yaml', 'diff', '@faker-js/faker', 'openai', 'ajv'],
  // hyparquet reads back what hyparquet-writer wrote (export lint on verl's parquet).
  ...['hyparquet-writer', 'hyparquet'],
  // Chat templates rendered and tokens counted as a trainer does (export/sft/render).
  ...['@huggingface/jinja', '@huggingface/tokenizers'],
];

/** Only these may import 'electron' (DESIGN.md §2). */
const ELECTRON_IMPORTERS = (rel: string) =>
  rel === 'src/main/index.ts' || rel.startsWith('src/main/electron/') || rel.startsWith('src/preload/');

const files = sourceFiles();
const under = (dir: string) => files.filter((f) => f.rel.startsWith(dir));
type Violation = string;
const v = (f: SourceFile, line: number, what: string): Violation => `${f.rel}:${line}: ${what}`;

describe('import scanner (the rules below are only as good as it is)', () => {
  it('finds static, multi-line, side-effect, re-export, dynamic and type-only imports', () => {
    const refs = scanImports(
      [
        "import fs from 'node:fs';",
        "import type { A } from 'electron';",
        'import {',
        '  type B,',
        '  c,',
        "} from '../headless/http';",
        "import { type D, type E } from './types';",
        "import './side-effect';",
        "export * from './all';",
        "export type { F } from './f';",
        "const lazy = () => import('../renderer/x');",
        "import icon from '../../resources/icon.png?asset';",
        '// a comment: not an import',
      ].join('\n'),
    );
    expect(refs.map((r) => [r.spec, r.typeOnly, r.line])).toEqual(
      expect.arrayContaining([
        ['node:fs', false, 1],
        ['electron', true, 2],
        ['../headless/http', false, 3],
        ['./types', true, 7],
        ['./side-effect', false, 8],
        ['./all', false, 9],
        ['./f', true, 10],
        ['../renderer/x', false, 11],
        ['../../resources/icon.png?asset', false, 12],
      ]),
    );
    expect(refs).toHaveLength(9);
  });

  it('accounts for every line that starts an import statement in src/', () => {
    const missed: string[] = [];
    for (const f of files) {
      f.text.split('\n').forEach((line, i) => {
        if (/^\s*import[\s{'"*]/.test(line) && !f.imports.some((r) => r.line === i + 1))
          missed.push(`${f.rel}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(missed).toEqual([]);
  });

  it('sees the source tree', () => {
    for (const dir of ['src/shared/', 'src/main/core/', 'src/main/headless/', 'src/main/electron/', 'src/preload/'])
      expect(under(dir).length).toBeGreaterThan(0);
  });
});

describe('layer rules', () => {
  it('src/shared imports only zod and other shared files', () => {
    const bad: Violation[] = [];
    for (const f of under('src/shared/')) {
      for (const r of f.imports) {
        if (isRelative(r.spec)) {
          if (!resolveRelative(f, r.spec).startsWith('src/shared/'))
            bad.push(v(f, r.line, `reaches outside shared: ${r.spec}`));
        } else if (r.spec !== 'zod') bad.push(v(f, r.line, `imports ${r.spec}`));
      }
    }
    expect(bad).toEqual([]);
  });

  it('src/main/core imports no electron, adapter, renderer or Vite-only import; its packages are allowlisted', () => {
    const bad: Violation[] = [];
    for (const f of under('src/main/core/')) {
      for (const r of f.imports) {
        if (r.spec.includes('?')) bad.push(v(f, r.line, `Vite-only import ${r.spec}`));
        if (isRelative(r.spec)) {
          const target = resolveRelative(f, r.spec);
          const ok = ['src/main/core/', 'src/shared/', 'resources/'].some((d) => target.startsWith(d));
          if (!ok) bad.push(v(f, r.line, `reaches ${target}`));
        } else if (packageName(r.spec) === 'electron') bad.push(v(f, r.line, 'imports electron'));
        else if (!isNodeBuiltin(r.spec) && !CORE_PACKAGES.includes(packageName(r.spec))) {
          bad.push(v(f, r.line, `imports ${r.spec}, which is not on the core's dependency allowlist`));
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('core/services (the mock services) import only their own folder, core/lib, core/py and shared: no feature', () => {
    const bad: Violation[] = [];
    for (const f of under('src/main/core/services/')) {
      for (const r of f.imports.filter((i) => isRelative(i.spec))) {
        const target = resolveRelative(f, r.spec);
        const ok = ['src/main/core/services/', 'src/main/core/lib/', 'src/main/core/py/', 'src/shared/'].some((d) =>
          target.startsWith(d),
        );
        if (!ok) bad.push(v(f, r.line, `reaches ${target}`));
      }
    }
    expect(bad).toEqual([]);
  });

  it('src/main/headless never imports electron, the Electron adapters or the renderer', () => {
    const bad: Violation[] = [];
    for (const f of under('src/main/headless/')) {
      for (const r of f.imports) {
        if (packageName(r.spec) === 'electron') bad.push(v(f, r.line, 'imports electron'));
        if (isRelative(r.spec) && /^src\/(main\/electron|renderer)\//.test(resolveRelative(f, r.spec)))
          bad.push(v(f, r.line, `reaches ${r.spec}`));
      }
    }
    expect(bad).toEqual([]);
  });

  it("only src/main/index.ts, src/main/electron/ and src/preload/ import 'electron'", () => {
    const importers = files.filter((f) => f.imports.some((r) => packageName(r.spec) === 'electron')).map((f) => f.rel);
    expect(importers.filter((rel) => !ELECTRON_IMPORTERS(rel))).toEqual([]);
    expect(importers).toContain('src/main/index.ts');
  });

  it('src/renderer never imports src/main, node built-ins or electron', () => {
    const bad: Violation[] = [];
    for (const f of under('src/renderer/')) {
      for (const r of f.imports) {
        if (isRelative(r.spec) && resolveRelative(f, r.spec).startsWith('src/main/'))
          bad.push(v(f, r.line, `reaches ${r.spec}`));
        if (!isRelative(r.spec) && isNodeBuiltin(r.spec)) bad.push(v(f, r.line, `imports ${r.spec}`));
        if (packageName(r.spec) === 'electron') bad.push(v(f, r.line, 'imports electron'));
      }
    }
    expect(bad).toEqual([]);
  });

  it('the Electron modules unit-tested under Node load electron only as types, transitively', () => {
    const byRel = new Map(files.map((f) => [f.rel, f]));
    const find = (rel: string) => byRel.get(rel) ?? byRel.get(`${rel}.ts`) ?? byRel.get(`${rel}/index.ts`);
    const runtimeElectron = (rel: string, seen = new Set<string>()): string | undefined => {
      const f = find(rel);
      if (!f || seen.has(f.rel)) return undefined;
      seen.add(f.rel);
      for (const r of f.imports.filter((i) => !i.typeOnly)) {
        if (packageName(r.spec) === 'electron') return `${f.rel}:${r.line}`;
        if (isRelative(r.spec)) {
          const hit = runtimeElectron(resolveRelative(f, r.spec), seen);
          if (hit) return hit;
        }
      }
      return undefined;
    };
    for (const m of ['ipc', 'security', 'menu', 'native-binding', 'app-protocol'])
      expect(runtimeElectron(`src/main/electron/${m}.ts`), m).toBeUndefined();
    expect(runtimeElectron('src/main/electron/window.ts')).toBeDefined();
  });
});

describe('contract and handlers', () => {
  it('every procedure has a handler and there are no stray handler keys', () => {
    const keys = Object.keys(handlers).sort();
    expect(keys).toEqual([...PROCEDURE_NAMES].sort());
    for (const n of PROCEDURE_NAMES) {
      const h = handlers[n] as unknown as { prepare?: unknown; write?: unknown };
      if (typeof h === 'function') continue;
      // A two-stage mutation: prepare (reads, outside the transaction) and write (inside it).
      expect(contract[n].kind, `${n} has a prepare stage`).toBe('mutation');
      expect([typeof h.prepare, typeof h.write], n).toEqual(['function', 'function']);
    }
  });

  it('every procedure is named area.verb, has a kind and a non-empty summary', () => {
    for (const n of PROCEDURE_NAMES) {
      expect(n).toMatch(/^[a-z]+\.[a-z][A-Za-z]*$/);
      expect(['query', 'mutation', 'job']).toContain(contract[n].kind);
      expect(contract[n].summary.trim().length, n).toBeGreaterThan(10);
    }
  });
});

describe('file size', () => {
  it('files under src/ stay under 400 lines', () => {
    const long = files.map((f) => ({ rel: f.rel, lines: f.text.split('\n').length })).filter((f) => f.lines >= 400);
    expect(long).toEqual([]);
  });

  it('the test sources themselves stay under 300 lines', () => {
    const long = sourceFiles(path.join(__dirname, '..'))
      .map((f) => ({ rel: f.rel, lines: f.text.split('\n').length }))
      .filter((f) => f.lines >= 300 && !f.rel.startsWith('test/e2e/'));
    expect(long).toEqual([]);
  });
});
