import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ok, slotInput } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace, waitJob } from '../helpers/run-workspace';
import { chat, type RecordedRequest, type ScriptedServer, startScriptedOpenAI } from '../helpers/scripted-openai';
import { runCliCaptured } from '../helpers/transports';
import { answer, SLOT } from '../generation/llm-fixtures';

/**
 * Issue 16: a model server that echoes the configured key. The key (any shape: this one matches no
 * pattern rule) must appear nowhere the core writes: the workspace file and its WAL, as bytes, the
 * trajectory's trace as `traces export` prints it, and the job's result.
 */
const KEY = 'Zq7opaqueEndpointSecret4Vx9';
const ENV = 'COWORKENV_KEY_ECHO';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The key the request carried, as a careless server would repeat it. */
const bearer = (req: RecordedRequest) => String(req.headers.authorization ?? '').replace(/^Bearer /, '');

/** Every byte of the workspace: the file and, while open, its WAL. */
function workspaceBytes(file: string): string {
  return [file, `${file}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
}

function assertNoKey(where: string, text: string) {
  expect(text.length, where).toBeGreaterThan(0);
  expect(text.includes(KEY), where).toBe(false);
  expect(text.includes(Buffer.from(KEY).toString('base64').replace(/=+$/, '')), `${where} (base64)`).toBe(false);
}

async function echoServer(reply: (key: string, req: RecordedRequest) => ReturnType<typeof chat>) {
  const srv = await startScriptedOpenAI({ script: (req) => reply(bearer(req), req), requireKey: KEY });
  servers.push(srv);
  return srv;
}

describe('a model server that echoes the endpoint key', { timeout: 120_000 }, () => {
  it('a run (model agent and LLM simulated user): not in the workspace, traces export or the job result', async () => {
    const srv = await echoServer((key, req) =>
      // The agent's answer and the simulated user's turn both quote the key, in the text and a tool call.
      req.body?.tools?.length
        ? {
            type: 'chat',
            content: `Using the key ${key} as asked.`,
            toolCalls: [{ name: req.body.tools[0]!.function.name, arguments: { note: `auth ${key}` } }],
          }
        : chat(`Sure, my key is ${key}. Done.`),
    );
    const { core, workspacePath } = runWorkspace(generatedTasks(2), { env: { [ENV]: KEY } });
    const endpoint = { base_url: srv.baseUrl, model: 'echo', key_source: 'env' as const, key_env: ENV };
    await ok(core, 'endpoints.add', { name: 'echo', timeout_ms: 2000, ...endpoint });
    const { jobId } = await ok(core, 'runs.start', {
      agent: { kind: 'endpoint', endpoint: 'echo' },
      user: { kind: 'endpoint', endpoint: 'echo' },
      trials: 1,
      concurrency: 1,
      collection: 'echo-run',
    });
    const job = await waitJob(core, jobId);
    expect(job.state, job.error ?? '').toBe('done');
    expect(srv.chatRequests().length).toBeGreaterThan(1);
    assertNoKey('job', JSON.stringify(job));
    const { rows } = await ok(core, 'trajectories.list', { limit: 10 });
    expect(rows.length).toBe(2);
    for (const row of rows) {
      const { traceJsonl } = await ok(core, 'trajectories.exportTrace', { id: row.id });
      assertNoKey(`trace ${row.id}`, traceJsonl);
      assertNoKey(`trajectory ${row.id}`, JSON.stringify(await ok(core, 'trajectories.get', { id: row.id })));
    }
    assertNoKey('workspace while open', workspaceBytes(workspacePath));
    await core.close();
    const cli = await runCliCaptured(['--workspace', workspacePath, 'traces', 'export', '--id', String(rows[0]!.id)]);
    expect(cli.code, cli.stderr).toBe(0);
    assertNoKey('traces export', cli.stdout);
    assertNoKey('workspace', workspaceBytes(workspacePath));
  });

  it('an LLM generation: not in the tasks, the lineage (prompts and answers) or the job result', async () => {
    await echoServer((key) =>
      chat(`Authenticated with ${key}.\n\`\`\`json\n${JSON.stringify(answer({ notes: `key ${key}` }))}\n\`\`\``),
    );
    const { core, workspacePath } = runWorkspace([], { env: { [ENV]: KEY } });
    const srv = servers[0]!;
    await ok(core, 'endpoints.add', {
      name: 'echo',
      base_url: srv.baseUrl,
      model: 'echo',
      key_source: 'env',
      key_env: ENV,
      timeout_ms: 2000,
    });
    const { services, category, reference_date } = SLOT;
    const row = slotInput({ family: 'ops', services: [...services], category, reference_date, target_count: 2 });
    const { slots } = await ok(core, 'plan.create', { rows: [{ ...row, scenario: 'cross_service' }] });
    const { jobId } = await ok(core, 'generation.run', {
      slots: { ids: [slots[0]!.id] },
      perSlot: 2,
      seed: 3,
      generator: 'llm',
      endpoint: 'echo',
      concurrency: 1,
    });
    const job = await waitJob(core, jobId);
    expect(job.state, job.error ?? '').toBe('done');
    expect(srv.chatRequests().length).toBeGreaterThan(1);
    assertNoKey('job', JSON.stringify(job));
    const tasks = (await ok(core, 'tasks.list', { limit: 10 })).rows;
    for (const t of tasks) {
      const lineage = await ok(core, 'tasks.lineage', { taskId: t.task_id } as never);
      assertNoKey(`lineage ${t.task_id}`, JSON.stringify(lineage));
    }
    assertNoKey('workspace while open', workspaceBytes(workspacePath));
    await core.close();
    assertNoKey('workspace', workspaceBytes(workspacePath));
  });
});
