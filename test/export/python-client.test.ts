import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { freshEnvironment, taskClock } from '../../src/main/core/export/export-task';
import type { PyValue } from '../../src/main/core/services/pyjson';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { request } from '../helpers/http-json';
import { PYTHON, python } from '../helpers/python';
import { CLOCK, deterministicTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

const task = deterministicTask();
const plan = task.spec.reference_plan!;
const answer = task.spec.reference_final_text!;
let dir: string;
let server: RlEnvServer;
let toolset: string;

beforeAll(async () => {
  dir = path.join(tempDir(), 'pkg');
  const r = await exportRlPackage({ tasks: [task], outDir: dir, clock: CLOCK });
  toolset = r.files.find((f) => f.path.endsWith('.parquet'))!.path.split('/')[1]!;
  server = await serveRlPackage({ packageDir: dir, port: 0 });
});
afterAll(() => server?.close());

const bigIntSafe = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

describe.skipIf(!PYTHON.ok)(`Python against the live env server${PYTHON.ok ? '' : ` (skipped: ${PYTHON.why})`}`, () => {
  it("the README's minimal client steps the reference plan and reads a 1.0 grade", async () => {
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    const block = /## Minimal Python client[\s\S]*?```python\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    expect(block).toBe(fs.readFileSync(path.join(dir, 'coworkenv_verl/client.py'), 'utf8'));
    const work = tempDir();
    fs.writeFileSync(path.join(work, 'client.py'), block!);
    fs.writeFileSync(path.join(work, 'calls.json'), JSON.stringify(plan));
    const out = await python(['client.py', server.url, task.spec.task_id, 'calls.json', answer], {}, work);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const local = freshEnvironment(task, taskClock(task.spec, CLOCK));
    expect(lines.slice(0, plan.length)).toEqual(
      plan.map((s) => {
        const d = local.call(s.tool, s.args as PyValue);
        return { tool: s.tool, status: d.status, is_error: d.isError, text: d.text };
      }),
    );
    expect(lines[plan.length]).toEqual({
      score: 1,
      passed: true,
      completion: 1,
      safety: 1,
      robustness: 1,
      checks: { read_mail: 1, ticket_high: 1, reply_drafted: 1, reported: 1 },
    });
    expect(server.store.open).toBe(0); // the script closed its episode
  });

  it('verl tool, interaction and reward, driven like ToolAgentLoop from a parquet row, score 1.0', async () => {
    const buf = fs.readFileSync(path.join(dir, 'verl', toolset, 'train.parquet'));
    const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) });
    const work = tempDir();
    fs.writeFileSync(path.join(work, 'row.json'), JSON.stringify(bigIntSafe(rows[0])));
    fs.writeFileSync(path.join(work, 'plan.json'), JSON.stringify(plan));
    const stub = path.join(__dirname, 'fixtures/verl_stub');
    const out = await python(
      [path.join(__dirname, 'fixtures/verl_driver.py'), dir, toolset, 'row.json', 'plan.json', answer],
      { PYTHONPATH: `${stub}:${dir}`, COWORKENV_ENV_URL: server.url },
      work,
    );
    const r = JSON.parse(out);
    const local = freshEnvironment(task, taskClock(task.spec, CLOCK));
    expect(r.texts).toEqual(plan.map((s) => local.call(s.tool, s.args as PyValue).text));
    expect(r.episode).toMatch(/^ep_[0-9a-f]{24}$/);
    expect(r.interaction).toEqual([true, '', 1]); // no simulated user: the answer ends the rollout, graded 1.0
    expect(r.score).toEqual({ score: 1, completion: 1, safety: 1, robustness: 1, passed: 1 });
    // No tool call: graded on a fresh episode with the decoded answer → completion 0, robustness 1.
    expect(r.idle).toEqual({ score: 0.2, completion: 0, safety: 1, robustness: 1, passed: 0 });
    expect((await request(server.url, 'GET', `/episodes/${r.episode}`)).status).toBe(404); // closed by the reward
  });

  it('the simulated user asks the configured model, roles flipped, key from the named env, [DONE] ends', async () => {
    const seen: { auth?: string; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
    const replies = ['Budget is 0.', 'Thanks, that is all. [DONE]'];
    const llm = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: replies[seen.length - 1] } }] }));
      });
    });
    await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
      const out = await python([path.join(__dirname, 'fixtures/interaction_driver.py'), dir, base], {
        COWORKENV_TEST_KEY: 'secret-value',
      });
      expect(JSON.parse(out)).toEqual([
        [false, 'Budget is 0.', 0, { user_rounds: 1 }],
        [true, 'Thanks, that is all.', 0, { user_rounds: 2 }],
        [true, '', 0, {}], // max_rounds used up
      ]);
      expect(seen).toHaveLength(2);
      expect(seen[0]!.auth).toBe('Bearer secret-value');
      expect(seen[0]!.body.model).toBe('user-sim');
      expect(seen[0]!.body.messages.map((m) => [m.role, m.content.slice(0, 11)])).toEqual([
        ['system', 'Dana, terse'],
        ['assistant', 'Book it.'],
        ['user', 'Which budge'],
      ]);
      expect(seen[0]!.body.messages[0]!.content).toContain('- budget: 0');
    } finally {
      await new Promise<void>((r) => llm.close(() => r()));
    }
  });
});
