import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './test-core';

export const SRC = path.join(REPO_ROOT, 'src');

export type ImportRef = {
  /** The module specifier as written. */
  spec: string;
  /** `import type …`, `export type …` or braces holding only `type X` specifiers: erased at build time. */
  typeOnly: boolean;
  line: number;
};

export type SourceFile = { rel: string; abs: string; text: string; imports: ImportRef[] };

/** Every .ts/.tsx/.mts/.cts file under `dir`, paths relative to the repo root with forward slashes. */
export function sourceFiles(dir = SRC): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else if (/\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts')) {
        const text = fs.readFileSync(abs, 'utf8');
        out.push({
          rel: path.relative(REPO_ROOT, abs).split(path.sep).join('/'),
          abs,
          text,
          imports: scanImports(text),
        });
      }
    }
  };
  walk(dir);
  return out;
}

const IMPORT_CLAUSE = String.raw`(type\s+)?((?:[\w$]+\s*,?\s*)?(?:\*\s*as\s+[\w$]+|\{[^}]*\})?)`;
const EXPORT_CLAUSE = String.raw`(type\s+)?(\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})`;
const STATIC_IMPORT = new RegExp(String.raw`^[ \t]*import\s+${IMPORT_CLAUSE}\s*from\s*['"]([^'"\n]+)['"]`, 'gm');
const STATIC_EXPORT = new RegExp(String.raw`^[ \t]*export\s+${EXPORT_CLAUSE}\s*from\s*['"]([^'"\n]+)['"]`, 'gm');
const SIDE_EFFECT = /^[ \t]*import\s*['"]([^'"\n]+)['"]/gm;
const DYNAMIC = /\b(?:import|require)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;
const IMPORT_EQUALS = /^[ \t]*import\s+(type\s+)?[\w$]+\s*=\s*require\s*\(\s*['"]([^'"\n]+)['"]\s*\)/gm;

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Braces whose every specifier is `type X`: TypeScript erases the whole statement. */
const allTypeSpecifiers = (clause: string) => {
  const m = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!m) return false;
  const specs = m[1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return specs.length > 0 && specs.every((s) => /^type\s/.test(s));
};

/** Import and re-export specifiers of a TypeScript source, with whether each survives compilation. */
export function scanImports(text: string): ImportRef[] {
  const refs: ImportRef[] = [];
  for (const m of text.matchAll(STATIC_IMPORT)) {
    refs.push({ spec: m[3]!, typeOnly: !!m[1] || allTypeSpecifiers(m[2] ?? ''), line: lineOf(text, m.index!) });
  }
  for (const m of text.matchAll(STATIC_EXPORT)) {
    refs.push({ spec: m[3]!, typeOnly: !!m[1] || allTypeSpecifiers(m[2] ?? ''), line: lineOf(text, m.index!) });
  }
  for (const m of text.matchAll(SIDE_EFFECT)) refs.push({ spec: m[1]!, typeOnly: false, line: lineOf(text, m.index!) });
  for (const m of text.matchAll(IMPORT_EQUALS))
    refs.push({ spec: m[2]!, typeOnly: !!m[1], line: lineOf(text, m.index!) });
  // `import('x')` in a type position is erased too, but counting it as a runtime import is the safe side.
  for (const m of text.matchAll(DYNAMIC)) refs.push({ spec: m[1]!, typeOnly: false, line: lineOf(text, m.index!) });
  return refs;
}

export const isRelative = (spec: string) => spec.startsWith('./') || spec.startsWith('../');

const BUILTINS = new Set(builtinModules);
export const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!);

/** `@scope/pkg/sub` → `@scope/pkg`, `pkg/sub` → `pkg`. */
export const packageName = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;

/** Where a relative specifier points, relative to the repo root (no extension resolution needed for folder rules). */
export function resolveRelative(file: SourceFile, spec: string, root = REPO_ROOT): string {
  return path
    .relative(root, path.resolve(path.dirname(file.abs), spec.replace(/\?.*$/, '')))
    .split(path.sep)
    .join('/');
}
