import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient, type ModelTarget } from '../../src/main/core/agents/model-client';
import { generateWithLlm, type LlmReport } from '../../src/main/core/generation/llm/generate-llm';
import {
  chat,
  garbage,
  held,
  httpError,
  rateLimited,
  startScriptedOpenAI,
  type Script,
  type ScriptedServer,
} from '../helpers/scripted-openai';
import { answer, brokenWeights, SLOT } from './llm-fixtures';

const KEY = 'sk-gen-aa11bb22cc33dd44ee55ff66';
const NOW = () => new Date('2026-03-01T09:00:00Z');

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function run(
  script: Script,
  o: { count?: number; target?: Partial<ModelTarget>; signal?: AbortSignal } = {},
): Promise<{ report: LlmReport; srv: ScriptedServer }> {
  const srv = await startScriptedOpenAI({ script, requireKey: KEY });
  servers.push(srv);
  const client = createModelClient(
    // The timeout is past the test's hang guard unless a test is about timeouts: a busy machine must not turn a late
    // answer into a timeout and a retry.
    { name: 'gen-ep', baseUrl: srv.baseUrl, model: 'test-model', apiKey: KEY, timeoutMs: 600_000, ...o.target },
    { retry: { baseDelayMs: 10 } },
  );
  const report = await generateWithLlm(SLOT, {
    client,
    seed: 42,
    count: o.count ?? 1,
    now: NOW,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return { report, srv };
}
const userText = (srv: ScriptedServer, i: number) =>
  srv
    .chatRequests()
    [i]!.body!.messages.filter((m) => m.role === 'user')
    .at(-1)!.content as string;

describe('generateWithLlm', () => {
  it('a valid task first time: parsed out of prose and a fence, normalised to the slot, its lineage kept', async () => {
    const text =
      `Here is the task:\n\n\`\`\`json\n` +
      `${JSON.stringify(answer({ language: 'zh', reference_date: '2030-01-01' }), null, 2)}\n\`\`\`\nHope it helps!`;
    const { report, srv } = await run([chat(text, { usage: { prompt_tokens: 2100, completion_tokens: 900 } })]);
    expect(report.outcomes.map((o) => [o.status, o.taskId])).toEqual([['valid', 'llm_s7_42_00000']]);
    const task = report.tasks[0]!;
    expect(task).toMatchObject({
      task_id: 'llm_s7_42_00000',
      slot_id: 7,
      language: 'en',
      reference_date: '2026-04-10',
    });
    expect(task.tool_endpoints).toContainEqual({
      tool_name: 'helpdesk_update_ticket',
      url: 'http://localhost:9107/helpdesk/tickets/update',
      method: 'POST',
    });
    expect(task.tools.find((t) => t.name === 'gmail_save_draft')!.input_schema).toMatchObject({
      required: ['to', 'subject', 'body'],
    });
    expect(task.provenance).toEqual({ generator: 'llm', endpoint: 'gen-ep', model: 'test-model', seed: 42, index: 0 });
    expect(report.counts).toMatchObject({
      candidates: 1,
      valid_first: 1,
      requests: 1,
      prompt_tokens: 2100,
      completion_tokens: 900,
    });
    const [round] = report.outcomes[0]!.rounds;
    expect(round).toMatchObject({
      round: 1,
      kind: 'generate',
      answer: text,
      error: null,
      endpoint: 'gen-ep',
      attempts: 1,
    });
    expect(round!.verdicts!.every((v) => v.status !== 'fail')).toBe(true);
    // The prompt carries the slot, the catalog (tools, record schemas, audit keys) and the example.
    const prompt = userText(srv, 0);
    for (const s of [
      '"reference_date": "2026-04-10"',
      '"notes": "VPN trouble"',
      'helpdesk_close_ticket',
      '"ticket_id":{"type":"string"}',
      'audit "drafts"',
      'Escalate the VPN outage',
    ])
      expect(prompt).toContain(s);
    expect(srv.chatRequests()[0]!.body!.response_format).toBeUndefined(); // JSON mode not known to work
  });

  it('a broken task is repaired once with the failed verdicts; both rounds and the diff are kept', async () => {
    const { report, srv } = await run([chat(JSON.stringify(brokenWeights())), chat(JSON.stringify(answer()))]);
    expect(report.outcomes[0]!.status).toBe('repaired');
    expect(report.counts).toMatchObject({ valid_first: 0, repaired: 1, discarded: 0, requests: 2, retries: 0 });
    const feedback = userText(srv, 1);
    expect(feedback).toContain('The validators rejected that task');
    expect(feedback).toMatch(/- weights · /);
    const msgs = srv.chatRequests()[1]!.body!.messages;
    expect(msgs.at(-2)).toMatchObject({ role: 'assistant', content: JSON.stringify(brokenWeights()) });
    const [r1, r2] = report.outcomes[0]!.rounds;
    expect(r1!.verdicts!.find((v) => v.validator === 'weights')!.status).toBe('fail');
    expect(r2).toMatchObject({ kind: 'repair', error: null });
    expect(r2!.diff).toMatch(/^-\s+"weight": 0\.1,$/m);
    expect(r2!.diff).toMatch(/^\+\s+"weight": 0\.2,$/m);
  });

  it('still invalid after the repair: discarded, naming the validator', async () => {
    const { report } = await run([chat(JSON.stringify(brokenWeights())), chat(JSON.stringify(brokenWeights()))]);
    expect(report.outcomes[0]).toMatchObject({ status: 'discarded', reasonKind: 'invalid_after_repair' });
    expect(report.outcomes[0]!.reason).toContain('still invalid after one repair: weights');
    expect(report.tasks).toEqual([]);
  });

  it('garbage (prose without JSON, a non-JSON body): retried once, discarded as not JSON', async () => {
    const { report, srv } = await run(
      [chat('I cannot write tasks, sorry.'), garbage(), garbage('{"oops"'), chat('still no')],
      {
        count: 2,
      },
    );
    expect(report.outcomes.map((o) => [o.status, o.reasonKind])).toEqual([
      ['discarded', 'not_json'],
      ['discarded', 'not_json'],
    ]);
    expect(report.counts).toMatchObject({ candidates: 2, discarded: 2, requests: 4, retries: 2, not_json: 4 });
    // After prose, the retry tells the model what was wrong.
    expect(userText(srv, 1)).toContain('That answer could not be used: the answer is not JSON');
    expect(report.outcomes[1]!.rounds.map((r) => r.kind)).toEqual(['generate', 'retry']);
  });

  it('a 429 then an answer: the client waits as asked, the task is valid; attempts are in the lineage', async () => {
    const { report } = await run([rateLimited('1'), chat(JSON.stringify(answer()))]);
    expect(report.outcomes[0]!.status).toBe('valid');
    expect(report.outcomes[0]!.rounds[0]!.attempts).toBe(2);
    expect(report.counts).toMatchObject({ requests: 1, retries: 0, request_errors: 0 });
  });

  it('a timeout: retried once, then discarded as a timeout', async () => {
    // Never answered: the timeout must fire both times, whatever the machine's speed.
    const { report } = await run([held(), held()], { target: { timeoutMs: 1000 } });
    expect(report.outcomes[0]).toMatchObject({ status: 'discarded', reasonKind: 'timeout' });
    expect(report.outcomes[0]!.reason).toContain('no answer within 1 s');
    expect(report.counts).toMatchObject({ timeouts: 2, retries: 1, requests: 2 });
  });

  it('counts every outcome of a mixed run correctly; JSON mode is used where the endpoint supports it', async () => {
    const { report, srv } = await run(
      [
        chat(JSON.stringify(answer())), // 0 valid
        chat(JSON.stringify(brokenWeights())), // 1 repaired
        chat(JSON.stringify(answer())),
        httpError(500), // 2: 500s past the client's retries, then a retry that answers garbage twice → not JSON
        httpError(500),
        httpError(500),
        httpError(500),
        garbage(),
        chat('{"task_name": "no prompt"}'), // 3: parses but is no TaskSpec; the repair does not fix it
        chat('{"task_name": "still no prompt"}'),
        rateLimited('0'), // 4: valid after a 429
        chat(JSON.stringify(answer())),
      ],
      { count: 5, target: { jsonMode: true } },
    );
    expect(report.outcomes.map((o) => o.status)).toEqual(['valid', 'repaired', 'discarded', 'discarded', 'valid']);
    expect(report.outcomes[2]!.reasonKind).toBe('not_json');
    expect(report.outcomes[3]!.reasonKind).toBe('invalid_after_repair');
    expect(report.outcomes[3]!.reason).toContain('structure');
    expect(report.counts).toEqual({
      candidates: 5,
      valid_first: 2,
      repaired: 1,
      discarded: 2,
      requests: 8,
      retries: 1,
      not_json: 1,
      not_task_spec: 1,
      timeouts: 0,
      request_errors: 1,
      prompt_tokens: 50 * 6,
      completion_tokens: 20 * 6,
    });
    expect(report.tasks.map((t) => t.task_id)).toEqual(['llm_s7_42_00000', 'llm_s7_42_00001', 'llm_s7_42_00004']);
    expect(srv.chatRequests().every((r) => r.body!.response_format?.type === 'json_object')).toBe(true);
  });

  it('a refused key stops the slot at once (all requests would fail); the reason names the endpoint', async () => {
    const { report } = await run([], { count: 3, target: { apiKey: 'sk-wrong-key-0000000000' } });
    expect(report.outcomes).toHaveLength(1);
    expect(report.outcomes[0]).toMatchObject({ status: 'discarded', reasonKind: 'endpoint_error' });
    expect(report.stopped).toContain('endpoint "gen-ep"');
    expect(report.stopped).toContain('the key was refused (HTTP 401');
    expect(JSON.stringify(report)).not.toContain('sk-wrong-key-0000000000');
  });

  it('cancelling stops at once and keeps only finished candidates', async () => {
    const ctl = new AbortController();
    const script = (_req: unknown, n: number) => {
      if (n === 0) return chat(JSON.stringify(answer()));
      // The second candidate's request has arrived and is never answered: only the cancel can end the run.
      setImmediate(() => ctl.abort());
      return held();
    };
    const { report } = await run(script, { count: 2, signal: ctl.signal });
    expect(report.stopped).toBe('cancelled');
    expect(report.outcomes.map((o) => o.status)).toEqual(['valid']);
  });
});
