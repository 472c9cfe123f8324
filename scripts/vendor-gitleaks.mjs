#!/usr/bin/env node
/**
 * Regenerates resources/secret-patterns/gitleaks.rules.json from the pinned copy of gitleaks' rule file
 * (resources/secret-patterns/gitleaks.toml, MIT, LICENSE.gitleaks beside it). To update the rules: copy a newer
 * upstream config/gitleaks.toml over the pinned one, set RELEASE below, run `node scripts/vendor-gitleaks.mjs`,
 * then run test/core/secret-patterns.test.ts and test/core/redact-corpora.test.ts (a new rule may need an allow).
 *
 * Why a JSON copy: the core then imports plain data (bundled like resources/seed) and needs no TOML parser at run
 * time. The reader below takes only the TOML that gitleaks' generator writes (tables, arrays of tables, key =
 * literal '''…''' / '…' / basic "…" strings, numbers, arrays of strings); anything else stops it with the line.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const RELEASE = 'v8.30.0';
const DIR = path.join(import.meta.dirname, '..', 'resources', 'secret-patterns');
const text = fs.readFileSync(path.join(DIR, 'gitleaks.toml'), 'utf8');

function basic(s, line) {
  return s.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e) => {
    if (e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
    const m = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' }[e];
    if (m === undefined) throw new Error(`line ${line}: unknown escape \\${e}`);
    return m;
  });
}

/** One value at the start of `s`: [value, rest]. */
function value(s, line) {
  let m = /^'''([\s\S]*?)'''/.exec(s) ?? /^'([^'\n]*)'/.exec(s);
  if (m) return [m[1], s.slice(m[0].length)];
  m = /^"((?:[^"\\\n]|\\.)*)"/.exec(s);
  if (m) return [basic(m[1], line), s.slice(m[0].length)];
  if (s.startsWith('[')) {
    const items = [];
    for (s = s.slice(1).trimStart(); !s.startsWith(']'); s = s.replace(/^\s*,?\s*/, '')) {
      const [v, rest] = value(s, line);
      items.push(v);
      s = rest;
    }
    return [items, s.slice(1)];
  }
  m = /^-?\d+(?:\.\d+)?/.exec(s);
  if (m) return [Number(m[0]), s.slice(m[0].length)];
  throw new Error(`line ${line}: unsupported value ${s.slice(0, 30)}`);
}

function parse(src) {
  const root = {};
  let table = root;
  const lines = src.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    let m = /^\[\[([\w.]+)\]\]$/.exec(line);
    if (m) {
      const keys = m[1].split('.');
      let at = root;
      for (const k of keys.slice(0, -1)) at = at[k].at(-1);
      const last = keys.at(-1);
      at[last] ??= [];
      table = {};
      at[last].push(table);
      continue;
    }
    m = /^\[([\w.]+)\]$/.exec(line);
    if (m) {
      table = root[m[1]] = {};
      continue;
    }
    m = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (!m) throw new Error(`line ${i + 1}: not a key = value: ${line}`);
    let src = m[2];
    // A multi-line array: its items up to the line that closes it, read as one inline array.
    if (src === '[') {
      for (i++; lines[i].trim() !== ']'; i++) if (!lines[i].trim().startsWith('#')) src += ` ${lines[i].trim()}`;
      src += ']';
    }
    const [v, rest] = value(src, i + 1);
    if (rest.trim() && !rest.trim().startsWith('#')) throw new Error(`line ${i + 1}: trailing ${rest}`);
    table[m[1]] = v;
  }
  return root;
}

const toml = parse(text);
const pick = (o, keys) => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
const allowKeys = ['description', 'condition', 'regexTarget', 'regexes', 'stopwords', 'paths'];
const out = {
  source: {
    project: 'gitleaks',
    file: 'config/gitleaks.toml',
    release: RELEASE,
    sha256: createHash('sha256').update(text).digest('hex'),
    license: 'MIT (LICENSE.gitleaks)',
  },
  allowlist: pick(toml.allowlist, ['regexes', 'stopwords']),
  rules: toml.rules.map((r) => ({
    ...pick(r, ['id', 'regex', 'secretGroup', 'entropy', 'keywords', 'path']),
    ...(r.allowlists ? { allowlists: r.allowlists.map((a) => pick(a, allowKeys)) } : {}),
  })),
};
fs.writeFileSync(path.join(DIR, 'gitleaks.rules.json'), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${out.rules.length} rules written from gitleaks ${RELEASE} (${out.source.sha256.slice(0, 12)}…)`);
