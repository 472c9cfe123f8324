import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/main/core/lib/redact';
import { GITLEAKS, gitleaksFindings, gitleaksRuleIds } from '../../src/main/core/lib/secrets/gitleaks';
import { goRegexSource } from '../../src/main/core/lib/secrets/go-regex';
import { REPO_ROOT } from '../helpers/test-core';

const DIR = path.join(REPO_ROOT, 'resources/secret-patterns');
const toml = fs.readFileSync(path.join(DIR, 'gitleaks.toml'), 'utf8');
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const rand = (n: number, chars = AN) => [...randomBytes(n)].map((b) => chars[b % chars.length]).join('');
const hex = (n: number) => randomBytes(n).toString('hex').slice(0, n);

describe('the vendored gitleaks rule set (resources/secret-patterns)', () => {
  it('the JSON the core loads is the pinned TOML: same file hash, rule ids and regexes, with the MIT licence', () => {
    expect(GITLEAKS.source.sha256).toBe(createHash('sha256').update(toml).digest('hex'));
    expect(fs.readFileSync(path.join(DIR, 'LICENSE.gitleaks'), 'utf8')).toMatch(/^MIT License/);
    const ids = [...toml.matchAll(/^id = "([^"]+)"$/gm)].map((m) => m[1]);
    const regexes = [...toml.matchAll(/^regex = '''(.*)'''$/gm)].map((m) => m[1]);
    expect(ids.length).toBe(222);
    expect(GITLEAKS.rules.map((r) => r.id)).toEqual(ids);
    expect(GITLEAKS.rules.flatMap((r) => (r.regex ? [r.regex] : []))).toEqual(regexes);
  });

  it('every rule compiles for JavaScript; only the five bound to a file path are left out', () => {
    const used = gitleaksRuleIds();
    const left = GITLEAKS.rules.map((r) => r.id).filter((id) => !used.includes(id));
    expect(left.sort()).toEqual([
      'freemius-secret-key',
      'hashicorp-tf-password',
      'kubernetes-secret-yaml',
      'nuget-config-password',
      'pkcs12-file',
    ]);
    for (const a of [...GITLEAKS.allowlist.regexes, ...GITLEAKS.rules.flatMap((r) => r.allowlists ?? [])])
      if (typeof a === 'string') expect(() => new RegExp(goRegexSource(a))).not.toThrow();
  });

  it('finds provider keys no hand-written rule here knows', () => {
    const cases: [string, string][] = [
      ['gitlab-pat', `glpat-${rand(20)}`],
      ['npm-access-token', `npm_${rand(36)}`],
      ['shopify-access-token', `shpat_${hex(32)}`],
      ['doppler-api-token', `dp.pt.${rand(43)}`],
      ['digitalocean-pat', `dop_v1_${hex(64)}`],
      ['pypi-upload-token', `pypi-AgEIcHlwaS5vcmc${rand(60)}`],
    ];
    for (const [rule, key] of cases) {
      const text = `deploy with ${key} today`;
      expect(gitleaksFindings(text), rule).toEqual([{ rule, start: 12, end: 12 + key.length }]);
      expect(redactText(text).text).toBe(`deploy with [REDACTED:${rule}] today`);
    }
  });

  it("keeps gitleaks' own allowlists and entropy thresholds, and skips pagination cursors", () => {
    // The AWS documentation's example key is on gitleaks' allowlist; a low-entropy value is no key.
    expect(gitleaksFindings('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toEqual([]);
    expect(gitleaksFindings('api_token = aaaaaaaaaaaaaaaaaaaa')).toEqual([]);
    expect(gitleaksFindings(`{"nextPageToken": "${rand(24)}7"}`)).toEqual([]);
    expect(gitleaksFindings(`{"session_key": "${rand(24)}7"}`).map((f) => f.rule)).toEqual(['generic-api-key']);
  });
});

describe('Go regular expressions in JavaScript', () => {
  const re = (go: string) => new RegExp(`^(?:${goRegexSource(go)})$`);
  it('case-insensitive parts: (?i) to the end of its group, (?i:…), (?-i:…) inside them, classes', () => {
    expect(re('(?i)ab(?-i:C)d').test('ABCD')).toBe(true);
    expect(re('(?i)ab(?-i:C)d').test('ABcD')).toBe(false);
    expect(re('x(?i:y)z').test('xYz')).toBe(true);
    expect(re('x(?i:y)z').test('xYZ')).toBe(false);
    expect(re('(a(?i)b)c').test('aBc')).toBe(true);
    expect(re('(a(?i)b)c').test('aBC')).toBe(false);
    expect(re('(?i)[a-c_-]+').test('AbC-_')).toBe(true);
  });
  it('(?s:.), POSIX classes, \\z, named groups', () => {
    expect(re('a(?s:.)b').test('a\nb')).toBe(true);
    expect(re('a.b').test('a\nb')).toBe(false);
    expect(re('[[:alnum:]]{3}').test('a1Z')).toBe(true);
    expect(new RegExp(goRegexSource('ab\\z')).test('xab')).toBe(true);
    expect(new RegExp(goRegexSource('(?P<k>q)')).exec('q')?.groups?.k).toBe('q');
    expect(() => goRegexSource('(?m)^a')).toThrow(/unsupported flag m/);
  });
});
