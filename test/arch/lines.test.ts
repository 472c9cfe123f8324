import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/test-core';

/**
 * Code lines stay ≤ 120 characters (Biome's lineWidth; it does not wrap strings, so this test
 * does), and every lint suppression names a rule that exists. Data files (.json, .jsonl, the trace
 * fixtures) and prose (.md) are byte-exact inputs or tables, so only code is checked.
 */
const MAX = 120;
const DIRS = ['src', 'test', 'bench', 'scripts'];
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|css|html)$/;

function codeFiles(): { rel: string; lines: string[] }[] {
  const out: { rel: string; lines: string[] }[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(abs);
      } else if (CODE.test(e.name)) {
        const rel = path.relative(REPO_ROOT, abs).split(path.sep).join('/');
        out.push({ rel, lines: fs.readFileSync(abs, 'utf8').split(/\r?\n/) });
      }
    }
  };
  for (const d of DIRS) walk(path.join(REPO_ROOT, d));
  return out;
}

/** Biome's rule names by group, from its own configuration schema (the installed version). */
function biomeRules(): Map<string, Set<string>> {
  const schema = JSON.parse(
    fs.readFileSync(path.join(REPO_ROOT, 'node_modules/@biomejs/biome/configuration_schema.json'), 'utf8'),
  ) as { $defs: Record<string, { properties?: Record<string, unknown> }> };
  const defs = schema.$defs;
  const groups = Object.keys(defs.Rules?.properties ?? {}).filter((g) => g !== 'recommended' && g !== 'preset');
  return new Map(
    groups.map((g) => {
      const def = defs[g[0]!.toUpperCase() + g.slice(1)] ?? (g === 'a11y' ? defs.A11y : undefined);
      return [g, new Set(Object.keys(def?.properties ?? {}).filter((r) => r !== 'recommended'))];
    }),
  );
}

const files = codeFiles();

describe('code lines', () => {
  it('sees the code', () => {
    for (const d of DIRS)
      expect(
        files.some((f) => f.rel.startsWith(`${d}/`)),
        d,
      ).toBe(true);
  });

  it(`every line in ${DIRS.join('/, ')}/ is at most ${MAX} characters`, () => {
    const long = files.flatMap((f) =>
      f.lines.flatMap((l, i) => {
        const n = [...l].length;
        return n > MAX ? [`${f.rel}:${i + 1} (${n} characters)`] : [];
      }),
    );
    expect(long).toEqual([]);
  });
});

describe('lint suppressions', () => {
  const rules = biomeRules();

  it('reads Biome’s rule list', () => {
    expect(rules.get('suspicious')?.has('noExplicitAny')).toBe(true);
    expect(rules.get('correctness')?.has('useExhaustiveDependencies')).toBe(true);
    expect(rules.get('suspicious')?.has('noSuchRule')).toBe(false);
  });

  it('every biome-ignore names an existing lint/<group>/<rule> and says why; no ESLint or TSLint comments', () => {
    const bad: string[] = [];
    for (const f of files) {
      f.lines.forEach((l, i) => {
        const at = `${f.rel}:${i + 1}`;
        if (/(?:\/\/|\/\*)\s*(?:eslint-disable|eslint-enable|tslint:disable)/.test(l))
          bad.push(`${at}: ESLint/TSLint comment (we lint with Biome)`);
        for (const m of l.matchAll(/(?:\/\/|\/\*)\s*biome-ignore(?:-all|-start|-end)?\s+([^\s:]+)(.*)$/g)) {
          const [, name, rest] = m;
          const parts = /^lint\/([a-zA-Z0-9]+)\/([a-zA-Z0-9]+)$/.exec(name!);
          if (!parts) bad.push(`${at}: "${name}" is not lint/<group>/<rule>`);
          else if (!rules.get(parts[1]!)?.has(parts[2]!)) bad.push(`${at}: no Biome rule ${parts[1]}/${parts[2]}`);
          if (!/^:\s*\S/.test(rest!)) bad.push(`${at}: a biome-ignore says why after ":"`);
        }
      });
    }
    expect(bad).toEqual([]);
  });
});
