import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { PROCEDURE_NAMES } from '../../src/shared/contract';
import { makeWorkspaceFile, sha256 } from '../helpers/files';
import { runCliCaptured } from '../helpers/transports';
import { tempDir } from '../helpers/test-core';

const newFile = () => path.join(tempDir(), 'cli.coworkenv.db');

describe('exit codes', () => {
  it('0 when the procedure succeeds, with the data on stdout', async () => {
    const ws = await makeWorkspaceFile({ seedDemo: true });
    const r = await runCliCaptured(['--workspace', ws, 'call', 'plan.get', '--input', '{"id": 3}']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 3 });
  });

  it('1 when the procedure fails, with the code, message and issues on stderr', async () => {
    const ws = await makeWorkspaceFile();
    const r = await runCliCaptured([
      '--workspace',
      ws,
      'call',
      'plan.update',
      '--input',
      '{"edits":[{"id":1,"field":"notes","value":"x"}]}',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error INVALID_INPUT: .*\n {2}edits\.0\.id: slot 1 was deleted by another writer\n$/);
    const j = await runCliCaptured(['--json', '--workspace', ws, 'call', 'plan.get', '--input', '{"id": 1}']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  const usage: [string, string[], RegExp][] = [
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['no command', [], /Usage:/],
    ['call without a procedure', ['call'], /exactly one procedure/],
    ['call with two procedures', ['call', 'plan.get', 'plan.list'], /exactly one procedure/],
    ['an unknown option', ['call', 'plan.stats', '--frob'], /--frob/],
    [
      'both --input and --input-file',
      ['call', 'plan.stats', '--input', '{}', '--input-file', 'x.json'],
      /--input or --input-file, not both/,
    ],
    ['malformed --input JSON', ['call', 'plan.get', '--input', '{"id": 1,}'], /--input:1:10: not valid JSON/],
    [
      'malformed multi-line --input JSON',
      ['call', 'plan.get', '--input', '{\n  "id": one\n}'],
      /--input:2:9: not valid JSON/,
    ],
    [
      'an unreadable --input-file',
      ['call', 'plan.get', '--input-file', '/nonexistent/in.json'],
      /cannot read --input-file \/nonexistent\/in\.json: ENOENT/,
    ],
    ['a non-numeric --port', ['serve', '--port', 'http'], /--port must be 0–65535, not "http"/],
    ['a --port out of range', ['serve', '--port', '70000'], /--port must be 0–65535/],
    ['a fractional --port', ['serve', '--port', '80.5'], /--port must be 0–65535/],
  ];
  for (const [what, argv, message] of usage) {
    it(`2 for ${what}`, async () => {
      const ws = newFile();
      const r = await runCliCaptured(['--workspace', ws, ...argv]);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toMatch(message);
      expect(fs.existsSync(ws), 'a usage error creates no workspace').toBe(false);
    });
  }

  it('with --json a usage error is also a BAD_REQUEST envelope on stdout', async () => {
    const r = await runCliCaptured(['--json', 'call', 'plan.get', '--input', '{']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/^--input:1:2: /) },
    });
  });

  it('--input-file reads JSON from a file and names it in errors', async () => {
    const ws = await makeWorkspaceFile({ seedDemo: true });
    const good = path.join(tempDir(), 'good.json');
    fs.writeFileSync(good, '{"id": 2}\n');
    expect(
      JSON.parse((await runCliCaptured(['--workspace', ws, 'call', 'plan.get', '--input-file', good])).stdout),
    ).toMatchObject({ id: 2 });
    const bad = path.join(tempDir(), 'bad.json');
    fs.writeFileSync(bad, '{\n  "id": 2,\n  "x": [1 2]\n}\n');
    const r = await runCliCaptured(['--workspace', ws, 'call', 'plan.get', '--input-file', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:3:11: not valid JSON`);
  });
});

describe('commands and workspaces', () => {
  it('procedures lists every procedure, as text and as JSON', async () => {
    const text = await runCliCaptured(['procedures']);
    expect(text.code).toBe(0);
    expect(
      text.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(PROCEDURE_NAMES);
    const json = JSON.parse((await runCliCaptured(['procedures', '--json'])).stdout);
    expect(json.data.map((p: { name: string }) => p.name)).toEqual(PROCEDURE_NAMES);
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await runCliCaptured(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exit codes: 0 success, 1 the procedure failed, 2 usage error/);
  });

  it('the default workspace is $COWORKENV_WORKSPACE', async () => {
    const ws = newFile();
    const r = await runCliCaptured(['--json', 'call', 'workspace.info'], { env: { COWORKENV_WORKSPACE: ws } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.path).toBe(ws);
    expect(fs.existsSync(ws)).toBe(true);
  });

  it('a new workspace gets the demo plan, or nothing with --empty; stderr says it was created', async () => {
    const demo = newFile();
    const r = await runCliCaptured(['--json', '--workspace', demo, 'call', 'plan.stats']);
    expect(JSON.parse(r.stdout).data.slots).toBeGreaterThanOrEqual(24);
    expect(r.stderr).toContain(`created workspace ${demo} with the demo coverage plan`);
    const empty = newFile();
    const e = await runCliCaptured(['--json', '--empty', '--workspace', empty, 'call', 'plan.stats']);
    expect(JSON.parse(e.stdout).data.slots).toBe(0);
    expect(e.stderr).toContain(`created workspace ${empty}\n`);
  });

  it('a --workspace that is not a workspace: exit 1, message naming the file, file unchanged', async () => {
    const file = path.join(tempDir(), 'notes.txt');
    fs.writeFileSync(file, 'shopping list\n'.repeat(100));
    const before = sha256(file);
    const r = await runCliCaptured(['--workspace', file, 'call', 'plan.stats']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(file);
    const j = await runCliCaptured(['--json', '--workspace', file, 'call', 'plan.stats']);
    expect(JSON.parse(j.stdout)).toMatchObject({
      ok: false,
      error: { code: 'WORKSPACE_ERROR', message: expect.stringContaining(file) },
    });
    expect(sha256(file)).toBe(before);
  });

  it('call on a job follows it to the end: exit 0, progress on stderr, rows committed', async () => {
    const ws = newFile();
    const input = JSON.stringify({
      serviceSets: [['gmail']],
      categories: ['a'],
      referenceDates: ['2026-01-01'],
      batchSize: 2,
    });
    const r = await runCliCaptured([
      '--json',
      '--empty',
      '--workspace',
      ws,
      'call',
      'plan.generateGrid',
      '--input',
      input,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, data: { jobId: expect.any(String) } });
    expect(r.stderr).toMatch(/done: done \(6\/6\)/);
    expect(
      JSON.parse((await runCliCaptured(['--json', '--workspace', ws, 'call', 'plan.stats'])).stdout).data.slots,
    ).toBe(6);
  });

  it('Ctrl+C during a followed job cancels it (exit 1, resume hint); jobs.resume via the CLI finishes it', async () => {
    const ws = newFile();
    const input = JSON.stringify({
      serviceSets: [['gmail'], ['kb']],
      categories: ['a', 'b'],
      referenceDates: ['2026-01-01'],
      batchSize: 3,
    });
    const r = await runCliCaptured(
      ['--json', '--empty', '--workspace', ws, 'call', 'plan.generateGrid', '--input', input],
      { untilStopped: () => Promise.resolve() },
    );
    expect(r.code).toBe(1);
    const jobId = JSON.parse(r.stdout).data.jobId as string;
    expect(r.stderr).toContain(
      `job ${jobId} cancelled; \`coworkenv call jobs.resume --input '{"id":"${jobId}"}'\` continues it`,
    );
    const resumed = await runCliCaptured([
      '--json',
      '--workspace',
      ws,
      'call',
      'jobs.resume',
      '--input',
      JSON.stringify({ id: jobId }),
    ]);
    expect(resumed.code).toBe(0);
    const job = JSON.parse(
      (
        await runCliCaptured([
          '--json',
          '--workspace',
          ws,
          'call',
          'jobs.get',
          '--input',
          JSON.stringify({ id: jobId }),
        ])
      ).stdout,
    ).data;
    expect(job).toMatchObject({ state: 'done', done: 24, total: 24 });
    expect(
      JSON.parse((await runCliCaptured(['--json', '--workspace', ws, 'call', 'plan.stats'])).stdout).data.slots,
    ).toBe(24);
  });

  it('serve prints a URL with #token= that answers, and stops when told to', async () => {
    const ws = await makeWorkspaceFile({ seedDemo: true });
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let serving!: (info: { url: string; token: string }) => void;
    const onServing = new Promise<{ url: string; token: string }>((resolve) => (serving = resolve));
    const run = runCliCaptured(['--workspace', ws, 'serve'], { untilStopped: () => stopped, onServing: serving });
    const info = await onServing;
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${info.url}/rpc/workspace.info`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.token}` },
    });
    expect(await res.json()).toMatchObject({ ok: true, data: { path: ws } });
    stop();
    const r = await run;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${info.url}/#token=${info.token}`);
    await expect(fetch(`${info.url}/rpc/workspace.info`, { method: 'POST' })).rejects.toThrow();
  });

  it('serve --open starts the browser with a one-time link, never the token (ps shows every argv)', async () => {
    const ws = await makeWorkspaceFile();
    const dir = tempDir();
    const argsFile = path.join(dir, 'argv.txt');
    const browser = path.join(dir, 'fake-browser.sh');
    fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`, { mode: 0o755 });
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let serving!: (info: { url: string; token: string }) => void;
    const onServing = new Promise<{ url: string; token: string }>((resolve) => (serving = resolve));
    const run = runCliCaptured(['--workspace', ws, 'serve', '--port', '0', '--open'], {
      untilStopped: () => stopped,
      onServing: serving,
      env: { COWORKENV_BROWSER: browser },
    });
    const info = await onServing;
    // The fake browser is a shell the CLI spawns: a busy machine may take seconds; a hang guard, not a race.
    const argv = await vi.waitFor(() => fs.readFileSync(argsFile, 'utf8'), { timeout: 60_000 });
    expect(argv).not.toContain(info.token);
    const link = argv.trim();
    expect(link).toMatch(new RegExp(`^${info.url}/open/[A-Za-z0-9_-]+$`));
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/#token=${info.token}`);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(410);
    stop();
    const r = await run;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
