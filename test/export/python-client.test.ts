import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { freshEnvironment, taskClock } from '../../src/main/core/export/export-task';
import type { PyValue } from '../../src/main/core/py/pyjson';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { PYTHON, python } from '../helpers/python';
import { CLOCK, deterministicTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

const task = deterministicTask();
const plan = task.spec.reference_plan!;
const answer = task.spec.reference_final_text!;
let dir: string;
let server: RlEnvServer;
let _toolset: string;

beforeAll(async () => {
  dir = path.join(tempDir(), 'pkg');
  const r = await exportRlPackage({ tasks: [task], outDir: dir, clock: CLOCK });
  _toolset = r.files.find((f) => f.path.endsWith('.parquet'))!.path.split('/')[1]!;
  server = await serveRlPackage({ packageDir: dir, port: 0 });
});
afterAll(() => server?.close());

const _bigIntSafe = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

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
});
