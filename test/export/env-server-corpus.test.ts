import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { dumpsPy, isObject, parsePyJson, type PyValue } from '../../src/main/core/py/pyjson';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { corpusExportTasks, hasCorpus } from '../helpers/corpus-tasks';
import { goldenCallCount, goldenTaskIds, hasGoldens, readGolden } from '../helpers/goldens';
import { request } from '../helpers/http-json';
import { FULL_DATA, figure } from '../helpers/shared-data';
import { tempDir } from '../helpers/temp';

/** rss feed `categories` come from a Python set upstream: unordered (as in test/services/conformance). */
function canonical(v: PyValue): PyValue {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObject(v)) return v;
  const out: Record<string, PyValue> = {};
  for (const [k, x] of Object.entries(v))
    out[k] = k === 'categories' && Array.isArray(x) && 'source' in v ? [...x].map(String).sort() : canonical(x);
  return out;
}

let server: RlEnvServer;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

describe.skipIf(!hasCorpus || !hasGoldens)('env server on the corpus: Claw-Eval recorded answers, over HTTP', () => {
  beforeAll(async () => {
    const dir = path.join(tempDir(), 'pkg');
    await exportRlPackage({ tasks: corpusExportTasks(), outDir: dir, clock: new Date('2026-01-01T00:00:00Z') });
    server = await serveRlPackage({ packageDir: dir, port: 0 });
  });
  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  it('every recorded call (1,232 in ../shared) answers its status and tool-result text; audits match', async () => {
    const ids = goldenTaskIds();
    expect(ids.length).toBeGreaterThan(FULL_DATA ? 40 : 0);
    let calls = 0;
    // Tasks run concurrently, each on its own episode with the recorded clock.
    await Promise.all(
      ids.map(async (id) => {
        const g = readGolden(id);
        const created = await request(
          server.url,
          'POST',
          '/episodes',
          { task_id: id, clock: g.meta.instant_iso },
          {},
          agent,
        );
        expect(created.status, id).toBe(201);
        const ep = created.body.episode_id;
        for (const [i, c] of g.calls.entries()) {
          const r = await request(
            server.url,
            'POST',
            `/episodes/${ep}/step`,
            dumpsPy({ tool: c.tool, arguments: c.args }),
            {},
            agent,
          );
          const want = g.expected[i]!;
          const label = `${id} call ${i}: ${c.tool}`;
          expect([r.body.status, r.body.is_error], label).toEqual([want.status, want.is_error]);
          if (/"categories"/.test(want.text))
            expect(dumpsPy(canonical(parsePyJson(r.body.text))), label).toBe(
              dumpsPy(canonical(parsePyJson(want.text))),
            );
          else expect(r.body.text, label).toBe(want.text);
          calls++;
        }
        const audit = parsePyJson(
          (await request(server.url, 'GET', `/episodes/${ep}/audit`, undefined, {}, agent)).text,
        ) as Record<string, PyValue>;
        for (const [svc, want] of Object.entries(g.audit))
          expect(dumpsPy(canonical(audit[svc] ?? null)), `${id} audit ${svc}`).toBe(dumpsPy(canonical(want)));
        await request(server.url, 'DELETE', `/episodes/${ep}`, undefined, {}, agent);
      }),
    );
    expect(calls).toBe(figure(1232, goldenCallCount));
  });
});
