import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { DEFAULT_LIMITS } from '../../src/main/core/rl-env/episodes';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { request } from '../helpers/http-json';
import { CLOCK, deterministicTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

let section: string;
let server: RlEnvServer;

beforeAll(async () => {
  const dir = path.join(tempDir(), 'pkg');
  await exportRlPackage({ tasks: [deterministicTask()], outDir: dir, clock: CLOCK });
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  section = /## Scale out[^\n]*\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  server = await serveRlPackage({ packageDir: dir, port: 0 });
});
afterAll(() => server?.close());

describe("the package README's scale-out section", () => {
  it("states the server's own limits, one process per core, sticky episodes, the health check, a dead server", () => {
    expect(section).toContain(`at most ${DEFAULT_LIMITS.maxEpisodes} open at once`);
    expect(section).toContain(`idle ${DEFAULT_LIMITS.idleMs / 60_000} minutes`);
    expect(section).toContain('One process per core');
    expect(section).toContain('COWORKENV_ENV_URLS=');
    expect(section).toContain('**keeps it**');
    expect(section).toContain('extra_info.coworkenv_server_url');
    expect(section).toContain('**Health check**: `GET /`');
    expect(section).toContain('**When a server dies**');
  });

  it('the health check answers what the section says it does', async () => {
    const r = await request(server.url, 'GET', '/');
    expect(r.status).toBe(200);
    const keys = /answers 200 with `\{([^}]*)\}`/.exec(section)?.[1]?.split(', ');
    expect(keys).toEqual(['protocol', 'package_id', 'tasks', 'episodes', 'limits']);
    for (const k of keys!) expect(r.body).toHaveProperty(k);
    expect(r.body.limits).toEqual(DEFAULT_LIMITS);
  });
});
