import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { dumpsCompact, dumpsPy, parsePyJson, type PyValue } from '../../src/main/core/py/pyjson';
import { serveEnvironment } from '../../src/main/headless/services-http';
import { ok } from '../helpers/call';
import { CLAW_ROOT, GOLDENS, goldenTaskIds, hasGoldens, readGolden } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

/**
 * The user-facing paths over the same goldens: tasks imported from the corpus, replayed through
 * env.replay (what `coworkenv env replay` calls), and served over HTTP (`services serve`).
 */
let core: Core;
beforeAll(async () => {
  if (!hasGoldens) return;
  core = createTestCore({ seedDemo: false }).core;
  await ok(core, 'tasks.import', { paths: [CLAW_ROOT] });
});
afterAll(() => core?.close());

const unordered = (text: string) =>
  dumpsPy(
    JSON.parse(
      JSON.stringify(parsePyJson(text), (k, v) => (k === 'categories' && Array.isArray(v) ? [...v].sort() : v)),
    ),
  );

describe.skipIf(!hasGoldens)('env.replay of imported tasks matches the recorded goldens', () => {
  for (const id of goldenTaskIds()) {
    it(id, async () => {
      const t = readGolden(id);
      const callsJsonl = fs.readFileSync(path.join(GOLDENS, id, 'calls.jsonl'), 'utf8');
      const r = await ok(core, 'env.replay', { taskId: id, callsJsonl, clock: t.meta.instant_iso });
      r.dispatches.forEach((d, i) => {
        const want = t.expected[i]!;
        expect({ status: d.status, isError: d.isError, body: unordered(d.body) }, `${id} call ${i}`).toEqual({
          status: want.status,
          isError: want.is_error,
          body: unordered(dumpsPy(want.body)),
        });
      });
      for (const [svc, want] of Object.entries(t.audit))
        expect(unordered(r.audits[svc]!), `${id} audit ${svc}`).toBe(unordered(dumpsPy(want)));
    });
  }
});

/** The shipped subset has no recording of T033zh: the other two run there. */
const recorded = (id: string) => goldenTaskIds().includes(id);

describe.skipIf(!hasGoldens)('services serve answers over HTTP exactly what the in-process call answers', () => {
  it.each(['T029zh_cross_service_meeting', 'T033zh_ops_review_dashboard', 'T011zh_expense_report'].filter(recorded))(
    '%s',
    async (id) => {
      const t = readGolden(id);
      const now = new Date(t.meta.instant_iso);
      const viaHttp = core.taskEnvironment(id, now)!;
      const inProcess = core.taskEnvironment(id, now)!;
      const base = 20000 + Math.floor(Math.random() * 20000);
      const server = await serveEnvironment(viaHttp, base);
      try {
        for (const c of t.calls) {
          const url = t.meta.tools[c.tool]?.url;
          const local = inProcess.call(c.tool, c.args);
          if (!url) continue; // unknown tools never reach a service
          const u = new URL(url);
          const res = await fetch(`http://127.0.0.1:${Number(u.port) - 9100 + base}${u.pathname}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: dumpsCompact(c.args as PyValue),
          });
          const text = await res.text();
          expect(res.status, `${c.tool}`).toBe(
            local.status === 500 && local.text.startsWith('Error: Expecting value') ? 500 : local.status,
          );
          if (res.headers.get('content-type')?.includes('json'))
            expect(dumpsPy(parsePyJson(text)), c.tool).toBe(dumpsPy(local.body));
        }
        for (const svc of Object.keys(t.audit)) {
          const port = server.ports[svc]!;
          const audit = await (await fetch(`http://127.0.0.1:${port}/${svc}/audit`)).text();
          expect(unordered(audit), `audit ${svc}`).toBe(unordered(dumpsPy(inProcess.audits()[svc]!)));
        }
        const reset = await fetch(
          `http://127.0.0.1:${server.ports[Object.keys(t.audit)[0]!]}/${Object.keys(t.audit)[0]}/reset`,
          { method: 'POST' },
        );
        expect(await reset.json()).toEqual({ status: 'reset' });
      } finally {
        await server.close();
      }
    },
  );
});
