import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { makeWorkspaceFile, sha256 } from '../helpers/files';
import { FIXED_NOW, REPO_ROOT } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

const COMPANIONS = ['-wal', '-shm', '-journal'];
const companions = (file: string) => COMPANIONS.filter((c) => fs.existsSync(file + c));

/** A closed workspace with 5,000 slots whose pages in the middle of the file are zeroed (a bad disk, a torn copy). */
async function damagedWorkspace(): Promise<string> {
  const file = await makeWorkspaceFile({ seedDemo: true });
  const db = new Database(file);
  const insert = db.prepare(
    'INSERT INTO coverage_slots (family, services, category, difficulty, language, reference_date, scenario, ' +
      "target_count, notes, created_at, updated_at) VALUES (?, '[\"gmail\"]', 'c', 'easy', 'en', '2026-01-01', " +
      "'single_service', 1, ?, 't', 't')",
  );
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) insert.run(`family-${i}`, 'n'.repeat(100));
  })();
  // Damage the later half of the pages of the slots table and its indexes (dbstat names them), wherever the schema
  // puts them: a query over the slots reads a damaged page, however many tables later migrations add to the file.
  const pages = db
    .prepare("SELECT name, pageno FROM dbstat WHERE name LIKE 'coverage_slots%' ORDER BY name, pageno")
    .all() as { name: string; pageno: number }[];
  db.close();
  const damaged = [...new Set(pages.map((p) => p.name))].flatMap((name) => {
    const own = pages.filter((p) => p.name === name).map((p) => p.pageno);
    return own.slice(Math.floor(own.length / 2));
  });
  expect(damaged.length).toBeGreaterThan(20);
  const buf = fs.readFileSync(file);
  for (const page of damaged) buf.fill(0, 4096 * (page - 1), 4096 * page);
  fs.writeFileSync(file, buf);
  expect(companions(file)).toEqual([]);
  return file;
}

function refusal(file: string): Error & { code?: string } {
  try {
    const core = createCore({ workspacePath: file, clock: () => FIXED_NOW, watchIntervalMs: 0 });
    void core.close();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error(`${file} was opened; it should have been refused`);
}

describe('a workspace with damaged pages', () => {
  it('is refused on open with the tool to recover it; the file is unchanged, nothing created beside it', async () => {
    const file = await damagedWorkspace();
    const before = sha256(file);
    const err = refusal(file);
    expect(err.code).toBe('WORKSPACE_ERROR');
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/corrupted/);
    expect(err.message).toMatch(/sqlite3 '.*' \.recover \| sqlite3 '.*recovered\.coworkenv\.db'/);
    expect(sha256(file)).toBe(before);
    expect(companions(file)).toEqual([]);
  });

  it('too large to scan on open: a damaged page is reported as a damaged workspace when a query reads it', async () => {
    const file = await damagedWorkspace();
    const core = createCore({ workspacePath: file, clock: () => FIXED_NOW, watchIntervalMs: 0, quickCheckMaxBytes: 0 });
    try {
      const res = await core.dispatch('plan.list', { limit: 10, sort: [{ field: 'family', dir: 'desc' }] });
      expect(res.ok).toBe(false);
      if (res.ok) return;
      expect(res.error.code).toBe('WORKSPACE_ERROR');
      expect(res.error.message).toMatch(/corrupted/);
      expect(res.error.message).toContain('.recover');
    } finally {
      await core.close();
    }
  });

  it('read-only (write bits cleared): refused the same way, and no -wal or -shm left beside it', async () => {
    const file = await damagedWorkspace();
    fs.chmodSync(file, 0o444);
    const before = sha256(file);
    expect(refusal(file).message).toMatch(/corrupted/);
    expect(sha256(file)).toBe(before);
    expect(companions(file)).toEqual([]);
  });

  it('`validate --all` says so in one message and exit code 1, without a stack trace', async () => {
    const file = await damagedWorkspace();
    const r = await runCliCaptured(['--workspace', file, 'validate', '--all']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/corrupted/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(companions(file)).toEqual([]);
  });

  it('the built CLI in a child process: the same one message, exit code 1', async (ctx) => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'out/main/cli.js'))) return ctx.skip('out/main/cli.js is not built');
    const file = await damagedWorkspace();
    const r = await promisify(execFile)(process.execPath, [
      path.join(REPO_ROOT, 'bin/coworkenv.js'),
      '--workspace',
      file,
      'validate',
      '--all',
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/corrupted.*\.recover/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(companions(file)).toEqual([]);
  });
});
