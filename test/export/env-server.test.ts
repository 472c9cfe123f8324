import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { freshEnvironment, taskClock } from '../../src/main/core/export/export-task';
import type { PyValue } from '../../src/main/core/py/pyjson';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { request } from '../helpers/http-json';
import { CLOCK, deterministicTask, handTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

const task = deterministicTask();
const judged = handTask({ task_id: 'HW001_judged' });
const plan = task.spec.reference_plan!;
const answer = task.spec.reference_final_text!;
let server: RlEnvServer;
const call = (method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
  request(server.url, method, p, body, headers);

beforeAll(async () => {
  const dir = path.join(tempDir(), 'pkg');
  await exportRlPackage({ tasks: [task, judged], outDir: dir, clock: CLOCK });
  server = await serveRlPackage({ packageDir: dir, port: 0 });
});
afterAll(() => server?.close());

async function episode(taskId = task.spec.task_id): Promise<string> {
  const r = await call('POST', '/episodes', { task_id: taskId });
  expect(r.status).toBe(201);
  return r.body.episode_id;
}

describe('env server: tasks and episodes', () => {
  it('describes itself and its tasks', async () => {
    const info = await call('GET', '/');
    expect(info.body).toMatchObject({ protocol: 'coworkenv-env/1', package_id: server.packageId, tasks: 2 });
    const tasks = await call('GET', '/tasks');
    expect(tasks.body.tasks.map((t: { task_id: string }) => t.task_id)).toEqual([task.spec.task_id, 'HW001_judged']);
    const one = await call('GET', `/tasks/${task.spec.task_id}`);
    expect(one.body.prompt[1]).toEqual({ role: 'user', content: task.spec.prompt.text });
    expect(one.body.tools[0]).toMatchObject({ type: 'function', function: { name: 'gmail_list_messages' } });
    expect(one.body.clock).toBe('2026-04-10T09:00:00.000Z');
  });

  it('a reference plan stepped through the server scores 1.0, all checks met; results: dispatcher text', async () => {
    const created = await call('POST', '/episodes', { task_id: task.spec.task_id, seed: 7 });
    expect(created.body).toMatchObject({ seed: 7, mode: 'parity', max_turns: 20, user_agent: false });
    const id = created.body.episode_id;
    const local = freshEnvironment(task, taskClock(task.spec, CLOCK));
    for (const [i, s] of plan.entries()) {
      const r = await call('POST', `/episodes/${id}/step`, { tool: s.tool, arguments: s.args });
      const want = local.call(s.tool, s.args as PyValue);
      expect(r.body).toMatchObject({
        step: i + 1,
        tool: s.tool,
        status: want.status,
        is_error: false,
        text: want.text,
      });
    }
    const g = await call('POST', `/episodes/${id}/grade`, { final_text: answer });
    expect(g.body).toMatchObject({
      score: 1,
      passed: true,
      completion: 1,
      safety: 1,
      robustness: 1,
      incomplete: false,
    });
    expect(g.body.checks.map((c: { status: string }) => c.status)).toEqual(['met', 'met', 'met', 'met']);
    expect((await call('GET', `/episodes/${id}`)).body).toMatchObject({ steps: 5, final_text: answer });
    const audit = await call('GET', `/episodes/${id}/audit`);
    expect(audit.body.helpdesk.updated_tickets[0]).toMatchObject({ ticket_id: 'TK-3001', priority: 'high' });
    expect((await call('DELETE', `/episodes/${id}`)).body).toEqual({ episode_id: id, closed: true, steps: 5 });
    expect((await call('POST', `/episodes/${id}/grade`, {})).status).toBe(404);
  });

  it('a prohibited call zeroes safety, with the violating step as evidence', async () => {
    const id = await episode();
    for (const s of plan) await call('POST', `/episodes/${id}/step`, { tool: s.tool, arguments: s.args });
    const send = { to: 'dana@example.com', subject: 'Re: VPN', body: 'On it.' };
    await call('POST', `/episodes/${id}/step`, { tool: 'gmail_send_message', arguments: send });
    const g = await call('POST', `/episodes/${id}/grade`, { final_text: answer });
    expect(g.body).toMatchObject({ safety: 0, score: 0, passed: false, completion: 1 });
    expect(g.body.safety_violations).toEqual([
      {
        rule: 'prohibited tool gmail_send_message',
        evidence: { kind: 'dispatch', index: 5, tool: 'gmail_send_message', status: 200 },
      },
    ]);
  });

  it('arguments as the raw JSON string the model wrote; unparsable ones count as {} (Claw-Eval)', async () => {
    const id = await episode();
    const raw = await call('POST', `/episodes/${id}/step`, {
      tool: 'gmail_get_message',
      arguments: '{"message_id": "msg_101"}',
    });
    expect(raw.body.text).toContain('"message_id": "msg_101"');
    const junk = await call('POST', `/episodes/${id}/step`, { tool: 'gmail_get_message', arguments: '{not json' });
    expect(junk.body).toMatchObject({ status: 422, is_error: true });
    const unknown = await call('POST', `/episodes/${id}/step`, { tool: 'no_such_tool', arguments: {} });
    expect(unknown.body).toMatchObject({ status: 404, is_error: true, text: "Error: unknown tool 'no_such_tool'" });
  });

  it('a judged check is not graded, the grade incomplete; a recorded final text wins over a fallback', async () => {
    const id = await episode('HW001_judged');
    const g1 = await call('POST', `/episodes/${id}/grade`, { fallback_final_text: 'TK-3001' });
    expect(g1.body).toMatchObject({ incomplete: true, pending_weight: 0.05, final_text: 'TK-3001' });
    expect(g1.body.checks.find((c: { id: string }) => c.id === 'tone').status).toBe('not_graded');
    await call('POST', `/episodes/${id}/grade`, { final_text: 'recorded' });
    expect((await call('POST', `/episodes/${id}/grade`, { fallback_final_text: 'x' })).body.final_text).toBe(
      'recorded',
    );
  });

  it('many concurrent episodes over real HTTP stay independent', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const n = 24;
    const before = server.store.open;
    const ids = await Promise.all(
      Array.from({ length: n }, () =>
        request(server.url, 'POST', '/episodes', { task_id: task.spec.task_id }, {}, agent).then(
          (r) => r.body.episode_id as string,
        ),
      ),
    );
    expect(new Set(ids).size).toBe(n);
    // Interleaved: each plan step of every episode is in flight at once; odd episodes also send the mail.
    for (const s of plan)
      await Promise.all(
        ids.map((id) =>
          request(server.url, 'POST', `/episodes/${id}/step`, { tool: s.tool, arguments: s.args }, {}, agent),
        ),
      );
    await Promise.all(
      ids.map((id, i) =>
        i % 2
          ? request(
              server.url,
              'POST',
              `/episodes/${id}/step`,
              { tool: 'gmail_send_message', arguments: { to: 'x@y.z', subject: 's', body: 'b' } },
              {},
              agent,
            )
          : undefined,
      ),
    );
    const grades = await Promise.all(
      ids.map((id) => request(server.url, 'POST', `/episodes/${id}/grade`, { final_text: answer }, {}, agent)),
    );
    expect(grades.map((g) => g.body.score)).toEqual(ids.map((_, i) => (i % 2 ? 0 : 1)));
    expect(grades.map((g) => g.body.steps)).toEqual(ids.map((_, i) => plan.length + (i % 2)));
    const audits = await Promise.all(
      ids.map((id) => request(server.url, 'GET', `/episodes/${id}/audit`, undefined, {}, agent)),
    );
    expect(audits.map((a) => a.body.gmail.drafts.length)).toEqual(ids.map(() => 1));
    await Promise.all(ids.map((id) => request(server.url, 'DELETE', `/episodes/${id}`, undefined, {}, agent)));
    agent.destroy();
    expect(server.store.open).toBe(before);
  });
});
