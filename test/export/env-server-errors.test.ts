import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { PackageError } from '../../src/main/core/rl-env/package-load';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { request } from '../helpers/http-json';
import { CLOCK, deterministicTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

const task = deterministicTask();
const id = task.spec.task_id;
let dir: string;
let server: RlEnvServer;
let now = 1_000_000;
const call = (method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
  request(server.url, method, p, body, headers);
const error = (r: { status: number; body: { error: { code: string; message: string } } }) => [
  r.status,
  r.body.error.code,
];

beforeAll(async () => {
  dir = path.join(tempDir(), 'pkg');
  await exportRlPackage({ tasks: [task], outDir: dir, clock: CLOCK });
  server = await serveRlPackage({
    packageDir: dir,
    port: 0,
    limits: { maxEpisodes: 3, idleMs: 60_000, maxStepsPerEpisode: 2 },
    maxBodyBytes: 4096,
    now: () => now,
  });
});
afterAll(() => server?.close());

describe('env server: clear JSON errors', () => {
  it('requests', async () => {
    expect(error(await call('GET', '/', undefined, { host: 'evil.example:80' }))).toEqual([403, 'forbidden_host']);
    expect((await call('GET', '/', undefined, { host: 'localhost' })).status).toBe(200);
    expect(error(await call('POST', '/episodes', '{"task_id":', {}))).toEqual([400, 'bad_json']);
    expect((await call('POST', '/episodes', '{"task_id":')).body.error.message).toMatch(
      /^request body:1:12: not valid JSON/,
    );
    expect(error(await call('POST', '/episodes', '[1]'))).toEqual([400, 'bad_request']);
    expect(error(await call('POST', '/episodes', 'task', { 'content-type': 'text/plain' }))).toEqual([
      415,
      'unsupported_media_type',
    ]);
    const big = await call('POST', '/episodes', { task_id: id, pad: 'x'.repeat(5000) });
    expect(error(big)).toEqual([413, 'body_too_large']);
    expect(error(await call('PUT', '/episodes'))).toEqual([405, 'method_not_allowed']);
    expect((await call('PUT', '/episodes')).headers.allow).toBe('POST');
    expect(error(await call('GET', '/nope'))).toEqual([404, 'no_route']);
  });

  it('tasks, episodes and packages', async () => {
    expect(error(await call('POST', '/episodes', {}))).toEqual([400, 'bad_request']);
    const unknown = await call('POST', '/episodes', { task_id: 'T999' });
    expect(error(unknown)).toEqual([404, 'unknown_task']);
    expect(unknown.body.error.message).toBe(`task T999 is not in package ${server.packageId}`);
    expect(error(await call('POST', '/episodes', { task_id: id, package_id: 'feedfeedfeedfeed' }))).toEqual([
      409,
      'package_mismatch',
    ]);
    expect((await call('POST', '/episodes', { task_id: id, package_id: server.packageId })).status).toBe(201);
    expect(error(await call('POST', '/episodes', { task_id: id, seed: 1.5 }))).toEqual([400, 'bad_request']);
    expect(error(await call('POST', '/episodes', { task_id: id, clock: 'soon' }))).toEqual([400, 'bad_request']);
    expect(error(await call('POST', '/episodes', { task_id: id, error_rate: 2 }))).toEqual([400, 'bad_request']);
    // A fraction arrives as a float (the body keeps 0.25 a float, as Python would): it is a valid rate.
    expect((await call('POST', '/episodes', { task_id: id, error_rate: 0.25 })).status).toBe(201);
    expect(error(await call('POST', '/episodes', { task_id: id, error_rate: 1.5 }))).toEqual([400, 'bad_request']);
    expect(error(await call('POST', '/episodes/ep_nope/step', { tool: 'x' }))).toEqual([404, 'unknown_episode']);
    const e = (await call('POST', '/episodes', { task_id: id })).body.episode_id;
    expect(error(await call('POST', `/episodes/${e}/step`, { arguments: {} }))).toEqual([400, 'bad_request']);
    await call('POST', `/episodes/${e}/step`, { tool: 'gmail_list_messages' });
    await call('POST', `/episodes/${e}/step`, { tool: 'gmail_list_messages' });
    expect(error(await call('POST', `/episodes/${e}/step`, { tool: 'gmail_list_messages' }))).toEqual([
      409,
      'step_limit',
    ]);
    expect(error(await call('POST', `/episodes/${e}/grade`, { final_text: 3 }))).toEqual([400, 'bad_request']);
  });

  it('bounded: a full server refuses new episodes until some close or expire; expired ones say so', async () => {
    while (server.store.open < 3) await call('POST', '/episodes', { task_id: id });
    const full = await call('POST', '/episodes', { task_id: id });
    expect(error(full)).toEqual([503, 'too_many_episodes']);
    const kept = (await call('GET', '/')).body.episodes;
    expect(kept).toBe(3);
    now += 61_000; // everything idle past the limit
    const fresh = await call('POST', '/episodes', { task_id: id });
    expect(fresh.status).toBe(201);
    expect(server.store.open).toBe(1);
    now += 61_000;
    expect(
      error(await call('POST', `/episodes/${fresh.body.episode_id}/step`, { tool: 'gmail_list_messages' })),
    ).toEqual([410, 'episode_expired']);
  });
});

describe('package integrity', () => {
  it('a package whose files changed after the export is refused, naming the file', async () => {
    const copy = path.join(tempDir(), 'pkg');
    fs.cpSync(dir, copy, { recursive: true });
    const f = path.join(copy, 'fixtures', id, 'helpdesk', 'tickets.json');
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('TK-3001', 'TK-9001'));
    await expect(serveRlPackage({ packageDir: copy, port: 0 })).rejects.toThrow(
      new PackageError(`${f}: changed since the export (sha256 differs from manifest.json); export again`),
    );
    fs.rmSync(path.join(copy, 'tasks.jsonl'));
    await expect(serveRlPackage({ packageDir: copy, port: 0 })).rejects.toThrow(
      /tasks\.jsonl: missing from the package/,
    );
    await expect(serveRlPackage({ packageDir: path.join(copy, 'nope'), port: 0 })).rejects.toThrow(
      /no such package folder/,
    );
  });
});
