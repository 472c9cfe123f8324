import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { MIGRATIONS } from '../../src/main/core/db/migrations';
import { APPLICATION_ID } from '../../src/main/core/db/sqlite';
import { makeWorkspaceFile, sha256 } from '../helpers/files';
import { FIXED_NOW, tempDir } from '../helpers/test-core';

const SNAPSHOT = path.join(__dirname, 'schema-snapshot.json');

const open: Core[] = [];
const openCore = (workspacePath: string) => {
  const core = createCore({ workspacePath, clock: () => FIXED_NOW, checkOutput: true, watchIntervalMs: 0 });
  open.push(core);
  return core;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function readSchema(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return {
      objects: db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all(),
      userVersion: db.pragma('user_version', { simple: true }) as number,
      applicationId: db.pragma('application_id', { simple: true }) as number,
    };
  } finally {
    db.close();
  }
}

/** Expects createCore to refuse `file` with a WORKSPACE_ERROR naming it, and the file's bytes untouched. */
function expectRefused(file: string, pattern: RegExp) {
  const before = fs.statSync(file).isDirectory() ? null : sha256(file);
  let thrown: unknown;
  try {
    openCore(file);
  } catch (err) {
    thrown = err;
  }
  expect(thrown, 'createCore should refuse the file').toBeInstanceOf(Error);
  expect((thrown as { code?: string }).code).toBe('WORKSPACE_ERROR');
  expect((thrown as Error).message).toContain(file);
  expect((thrown as Error).message).toMatch(pattern);
  if (before) expect(sha256(file)).toBe(before);
  for (const c of ['-wal', '-shm', '-journal'])
    expect(fs.existsSync(file + c), `${c} beside a refused file`).toBe(false);
}

describe('migrations: empty → head', () => {
  it('builds the schema recorded in schema-snapshot.json', async () => {
    const file = await makeWorkspaceFile();
    const schema = readSchema(file);
    if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1')
      fs.writeFileSync(SNAPSHOT, `${JSON.stringify(schema.objects, null, 2)}\n`);
    expect(fs.existsSync(SNAPSHOT), 'no snapshot: run once with UPDATE_SCHEMA_SNAPSHOT=1').toBe(true);
    // A schema change without a new snapshot fails here: update it with UPDATE_SCHEMA_SNAPSHOT=1 and review the diff.
    expect(schema.objects).toEqual(JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')));
  });

  it('stamps user_version with the number of migrations and the application id', async () => {
    const schema = readSchema(await makeWorkspaceFile());
    expect(MIGRATIONS.length).toBeGreaterThan(0);
    expect(schema.userVersion).toBe(MIGRATIONS.length);
    expect(schema.applicationId).toBe(APPLICATION_ID);
  });

  it('uses STRICT tables, WAL and answers its versions through workspace.info', async () => {
    const file = await makeWorkspaceFile();
    const objects = readSchema(file).objects as { type: string; sql: string; name: string }[];
    // FTS5 tables (and the shadow tables SQLite makes for them) cannot be STRICT.
    const virtual = objects
      .filter((o) => o.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(o.sql))
      .map((o) => o.name);
    const tables = objects.filter(
      (o) => o.type === 'table' && !virtual.some((v) => o.name === v || o.name.startsWith(`${v}_`)),
    );
    expect(virtual.sort()).toEqual(['tasks_fts', 'trajectories_cjk', 'trajectories_fts']);
    for (const t of tables) expect(t.sql, t.name).toMatch(/\)\s*STRICT(, WITHOUT ROWID)?$/);
    const info = await openCore(file).dispatch('workspace.info', {});
    expect(info).toMatchObject({
      ok: true,
      data: {
        schemaVersion: MIGRATIONS.length,
        appSchemaVersion: MIGRATIONS.length,
        journalMode: 'wal',
        readOnly: false,
      },
    });
  });

  it('reopening a workspace at head changes nothing', async () => {
    const file = await makeWorkspaceFile({ seedDemo: true });
    const before = sha256(file);
    await openCore(file).close();
    expect(sha256(file)).toBe(before);
  });
});

describe('files the app must refuse, untouched', () => {
  it('a workspace written by a newer app', async () => {
    const file = await makeWorkspaceFile({ seedDemo: true });
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expectRefused(file, /newer/);
  });

  it('a text file', () => {
    const file = path.join(tempDir(), 'notes.coworkenv.db');
    fs.writeFileSync(file, 'These are my notes, not a database.\n'.repeat(200));
    expectRefused(file, /not an SQLite database|not a CoworkEnv workspace/);
  });

  it('a truncated workspace', async () => {
    const file = await makeWorkspaceFile({ seedDemo: true });
    fs.truncateSync(file, 1000);
    expectRefused(file, /corrupted|not a CoworkEnv workspace/);
  });

  it('a workspace whose first page is overwritten', async () => {
    const file = await makeWorkspaceFile({ seedDemo: true });
    const buf = fs.readFileSync(file);
    buf.fill(0x5a, 100, 4096);
    fs.writeFileSync(file, buf);
    expectRefused(file, /corrupted|not a CoworkEnv workspace/);
  });

  it("another application's SQLite database", () => {
    const file = path.join(tempDir(), 'other.db');
    const db = new Database(file);
    db.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada');");
    db.close();
    expectRefused(file, /not a CoworkEnv workspace/);
  });

  it('an empty SQLite database stamped by another application', () => {
    const file = path.join(tempDir(), 'stamped.db');
    const db = new Database(file);
    db.pragma('application_id = 12345');
    db.close();
    expectRefused(file, /application_id 12345/);
  });

  it('a directory', () => {
    const dir = path.join(tempDir(), 'folder.coworkenv.db');
    fs.mkdirSync(dir);
    expectRefused(dir, /directory/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('a read-only workspace (write bits cleared)', () => {
  it('opens, answers queries, refuses every write with READ_ONLY and keeps the file unchanged', async () => {
    const file = await makeWorkspaceFile({ seedDemo: true });
    fs.chmodSync(file, 0o444);
    const before = sha256(file);
    const core = openCore(file);

    const info = await core.dispatch('workspace.info', {});
    expect(info).toMatchObject({ ok: true, data: { readOnly: true, counts: { slots: 26 } } });
    const list = await core.dispatch('plan.list', { limit: 5 });
    expect(list.ok && (list.data as { total: number }).total).toBe(26);

    const writes: [string, unknown][] = [
      ['plan.delete', { ids: [1] }],
      ['plan.update', { edits: [{ id: 1, field: 'notes', value: 'x' }] }],
      ['plan.loadDemo', {}],
      ['plan.generateGrid', { serviceSets: [['gmail']], categories: ['c'], referenceDates: ['2026-01-05'] }],
      ['jobs.cancel', { id: 'nope' }],
    ];
    for (const [name, input] of writes) {
      const r = await core.dispatch(name, input);
      expect(r, name).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
      if (!r.ok) expect(r.error.message).toContain(file);
    }
    await core.close();
    expect(sha256(file)).toBe(before);
    expect(fs.statSync(file).mode & 0o777).toBe(0o444);
  });

  it('opens even when it holds a job left running by a process that is gone', async () => {
    const file = await makeWorkspaceFile();
    const db = new Database(file);
    db.prepare(
      'INSERT INTO jobs (id, name, input, state, owner, created_at, updated_at) ' +
        "VALUES ('j1', 'plan.generateGrid', '{}', 'running', '2147483646:gone', 'x', 'x')",
    ).run();
    db.close();
    fs.chmodSync(file, 0o444);
    const before = sha256(file);
    const core = openCore(file);
    // It cannot record the interruption, so the stored state is shown as it is.
    expect(await core.dispatch('jobs.get', { id: 'j1' })).toMatchObject({ ok: true, data: { state: 'running' } });
    await core.close();
    expect(sha256(file)).toBe(before);
  });
});
