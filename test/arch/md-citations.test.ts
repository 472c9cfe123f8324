import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/test-core';

/**
 * Every Markdown file a comment cites exists in the repository (issue 22): the design documents the code
 * relies on live in docs/, a module's README beside it. A citation is a path ending in `.md` inside a
 * comment; it resolves from the citing file's folder, from the repository root, from src/main/core, or by its
 * name under docs/ (`formats.md` → docs/reference/formats.md). A citation with a section right after it
 * (`formats.md §6.3`, `` `claw-eval.md` §8 ``) also needs a heading numbered so in that document
 * (`### 6.3 Task-level selection`): renumbering a document must not leave the code pointing elsewhere.
 */
const ROOTS = ['src', 'test', 'bench', 'scripts'];
const CODE = /\.(ts|tsx|mts|cts|mjs|cjs|js)$/;
const CITATION = /(?:[\w.-]+\/)*[\w.-]+\.md\b/g;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) walk(abs, out);
    else if (CODE.test(e.name)) out.push(abs);
  }
  return out;
}

/** The comment text of a line: whole-line comments, or what follows ` // `. */
function commentOf(line: string): string {
  const t = line.trim();
  if (t.startsWith('*') || t.startsWith('/*') || t.startsWith('//')) return t;
  const i = line.indexOf(' // ');
  return i >= 0 ? line.slice(i) : '';
}

const docs = listMarkdown(path.join(REPO_ROOT, 'docs'));
function listMarkdown(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) listMarkdown(abs, out);
    else if (e.name.endsWith('.md')) out.push(abs);
  }
  return out;
}

/** The path a citation names, or null when no candidate exists. */
function resolve(citation: string, file: string): string | null {
  const tail = citation.replace(/^(\.\.\/)*shared\//, '');
  const candidates = [
    path.resolve(path.dirname(file), citation),
    path.join(REPO_ROOT, citation),
    path.join(REPO_ROOT, 'src/main/core', citation),
    path.join(REPO_ROOT, 'docs', tail),
  ];
  return candidates.find((c) => fs.existsSync(c)) ?? docs.find((d) => d.endsWith(`/${tail}`)) ?? null;
}

/** A section number right after a citation (`formats.md §6.3`, `claw-eval.md` §8; a trailing '.' is prose). */
const SECTION = /^`?\s*§{1,2}\s*(\d+(?:\.\d+)*)/;

/** The numbered headings of a Markdown document: `## 6. Mock services` → 6, `### 6.3 Error injection` → 6.3. */
const headingsCache = new Map<string, Set<string>>();
function headingsOf(doc: string): Set<string> {
  let set = headingsCache.get(doc);
  if (!set) {
    set = new Set();
    for (const line of fs.readFileSync(doc, 'utf8').split('\n')) {
      const m = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
      if (m) set.add(m[1]!);
    }
    headingsCache.set(doc, set);
  }
  return set;
}

describe('cited documents', () => {
  it('every .md a comment cites exists in the repository', () => {
    const missing: string[] = [];
    let cited = 0;
    let sections = 0;
    for (const root of ROOTS)
      for (const file of walk(path.join(REPO_ROOT, root)))
        fs.readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const comment = commentOf(line);
            for (const m of comment.matchAll(CITATION)) {
              cited++;
              const where = `${path.relative(REPO_ROOT, file)}:${i + 1}: ${m[0]}`;
              const doc = resolve(m[0], file);
              if (!doc) {
                missing.push(where);
                continue;
              }
              const section = SECTION.exec(comment.slice((m.index ?? 0) + m[0].length))?.[1];
              if (section === undefined) continue;
              sections++;
              if (!doc.endsWith('.md') || !headingsOf(doc).has(section)) missing.push(`${where} §${section}`);
            }
          });
    expect(cited).toBeGreaterThan(100);
    expect(sections).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
