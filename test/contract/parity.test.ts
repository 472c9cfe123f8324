import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { startHttpServer, type HttpServer } from '../../src/main/headless/http';
import type { ApiResult } from '../../src/shared/contract';
import { slotInput } from '../helpers/call';
import { copyWorkspace, makeWorkspaceFile } from '../helpers/files';
import { cliCall, httpCall } from '../helpers/transports';
import { FIXED_NOW, REPO_ROOT, TS_WORKER } from '../helpers/test-core';

const BUILT_CLI = path.join(REPO_ROOT, 'out/main/cli.js');

/** A deterministic sequence: every transport replays it on its own copy of the same workspace. */
const SEQUENCE: [string, unknown][] = [
  ['plan.list', { limit: 3, sort: [{ field: 'target_count', dir: 'desc' }] }],
  [
    'plan.list',
    {
      limit: 2,
      filters: [
        {
          field: 'services',
          operator: 'OR',
          conditions: [
            { op: 'contains', value: 'crm' },
            { op: 'contains', value: 'rss' },
          ],
        },
      ],
    },
  ],
  ['plan.get', { id: 2 }],
  ['plan.stats', {}],
  ['plan.create', { rows: [slotInput({ family: 'parity', services: 'crm, gmail', target_count: '4' })] }],
  [
    'plan.update',
    {
      edits: [
        { id: 27, field: 'difficulty', value: 'HARD' },
        { id: 3, field: 'notes', value: 'edited' },
      ],
    },
  ],
  ['plan.delete', { ids: [1, 2] }],
  [
    'plan.paste',
    {
      rows: [
        { id: 4, values: { target_count: '11' } },
        {
          values: {
            family: 'p',
            services: 'kb',
            category: 'c',
            difficulty: 'easy',
            language: 'zh',
            reference_date: '2026-06-01',
            scenario: 'safety',
          },
        },
      ],
    },
  ],
  ['plan.stats', undefined],
  ['jobs.list', {}],
  // Errors
  ['plan.explode', {}],
  ['plan.list', { limit: 'ten' }],
  ['plan.get', { id: 999 }],
  ['plan.update', { edits: [{ id: 5, field: 'reference_date', value: '2026-02-30' }] }],
  ['plan.restore', { slots: [] }],
  ['jobs.get', { id: 'nope' }],
  ['jobs.resume', { id: 'nope' }],
];

let template: string;
const cores: Core[] = [];
const servers: HttpServer[] = [];
const openCore = (workspacePath: string) => {
  const core = createCore({ workspacePath, clock: () => FIXED_NOW, watchIntervalMs: 0, ...TS_WORKER });
  cores.push(core);
  return core;
};
const serve = async (core: Core) => {
  const server = await startHttpServer({ core });
  servers.push(server);
  return server;
};

beforeAll(async () => {
  template = await makeWorkspaceFile({ seedDemo: true });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(cores.map((c) => c.close()));
});

describe('dispatch, HTTP and CLI answer the same envelopes', () => {
  it('for a sequence of queries, mutations and errors, each on its own copy of one workspace', async () => {
    const direct = openCore(copyWorkspace(template));
    const server = await serve(openCore(copyWorkspace(template)));
    const cliFile = copyWorkspace(template);

    for (const [name, input] of SEQUENCE) {
      const viaDispatch = await direct.dispatch(name, input);
      const viaHttp = await httpCall(server, name, input);
      const viaCli = await cliCall(cliFile, name, input);
      const label = `${name} ${JSON.stringify(input)}`;
      expect(viaHttp.envelope, label).toEqual(viaDispatch);
      expect(viaCli.envelope, label).toEqual(viaDispatch);
      // Dispatched envelopes travel with 200, failures included: the body's `ok` tells (http.ts).
      expect(viaHttp.status, label).toBe(200);
      expect(viaCli.code, label).toBe(viaDispatch.ok ? 0 : 1);
    }
  });

  it('the sequence covers successes and every error kind it means to', async () => {
    const core = openCore(copyWorkspace(template));
    const results: ApiResult<unknown>[] = [];
    for (const [name, input] of SEQUENCE) results.push(await core.dispatch(name, input));
    const codes = new Set(results.flatMap((r) => (r.ok ? [] : [r.error.code])));
    expect(codes).toEqual(new Set(['UNKNOWN_PROCEDURE', 'INVALID_INPUT', 'NOT_FOUND']));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    const created = results[4] as { ok: true; data: { slots: { id: number; created_at: string }[] } };
    expect(created.data.slots[0]).toMatchObject({ id: 27, created_at: FIXED_NOW.toISOString() });
  });

  it('for queries on one shared workspace file, workspace.info included', async () => {
    const file = copyWorkspace(template);
    const core = openCore(file);
    const server = await serve(core);
    for (const [name, input] of [
      ['workspace.info', {}],
      ['plan.list', { offset: 20 }],
      ['plan.stats', {}],
    ] as const) {
      const viaDispatch = await core.dispatch(name, input);
      expect(viaDispatch.ok, name).toBe(true);
      expect((await httpCall(server, name, input)).envelope, name).toEqual(viaDispatch);
      expect((await cliCall(file, name, input)).envelope, name).toEqual(viaDispatch);
    }
  });

  it('the built CLI in a child process (bin/coworkenv.js) answers the same workspace.info', async (ctx) => {
    if (!fs.existsSync(BUILT_CLI)) return ctx.skip('out/main/cli.js is not built (npm run build)');
    const file = copyWorkspace(template);
    const core = openCore(file);
    const expected = await core.dispatch('workspace.info', {});
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(REPO_ROOT, 'bin/coworkenv.js'), '--json', '--workspace', file, 'call', 'workspace.info'],
      { env: { ...process.env, COWORKENV_WORKSPACE: '' } },
    );
    expect(JSON.parse(stdout)).toEqual(expected);
  });
});
