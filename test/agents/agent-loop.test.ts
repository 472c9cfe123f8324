import { afterEach, describe, expect, it, vi } from 'vitest';
import { runEpisode } from '../../src/main/core/agents/agent-loop';
import { modelAgent } from '../../src/main/core/agents/model-agent';
import { createModelClient } from '../../src/main/core/agents/model-client';
import { referenceAgent } from '../../src/main/core/agents/reference-agent';
import { buildSystemPrompt } from '../../src/main/core/agents/system-prompt';
import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { readTrace, writeTrace } from '../../src/main/core/traces';
import { planModel } from '../helpers/plan-model';
import {
  held,
  rateLimited,
  type ScriptedServer,
  startScriptedOpenAI,
  type Script,
  toolCalls,
} from '../helpers/scripted-openai';
import { validTask } from '../validation/valid-task';

const spec = TaskSpec.parse(validTask());
const servers: ScriptedServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function agentOn(script: Script, o: { timeoutMs?: number; key?: string } = {}) {
  const srv = await startScriptedOpenAI({ script, ...(o.key ? { requireKey: o.key } : {}) });
  servers.push(srv);
  const client = createModelClient(
    // Past the test's hang guard unless a test is about timeouts: a busy machine must not turn late answers into them.
    { name: 'teacher', baseUrl: srv.baseUrl, model: 'm-1', apiKey: o.key ?? null, timeoutMs: o.timeoutMs ?? 600_000 },
    { retry: { baseDelayMs: 1, maxDelayMs: 2, retryTimeouts: true } },
  );
  return { srv, agent: modelAgent(client) };
}

describe('the agent loop with a model over HTTP (scripted server)', () => {
  it('runs the task as Claw-Eval does: system prompt, tools, one result per call, usage, timings, graded', async () => {
    const { srv, agent } = await agentOn(planModel(spec));
    const e = await runEpisode({ spec, fixtures: [], agent });
    const t = Trajectory.parse(e.trajectory);
    const ref = await runEpisode({ spec, fixtures: [], agent: referenceAgent() });
    expect(e.stop).toBe('no_tool_calls');
    expect(t.termination).toBe('agent_stop');
    expect(e.grade.score).toBe(ref.grade.score);
    expect(e.grade.score).toBe(0.96); // completion 0.95 (the llm_judge check is not graded) → 0.8·0.95 + 0.2
    expect(t.model).toBe('m-1');
    expect(t.metadata.agent).toMatchObject({ kind: 'model', label: 'teacher (m-1)', temperature: 0 });
    // [system, user] + 5 × (assistant + tool) + final assistant
    expect(t.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      ...Array(5).fill(['assistant', 'tool']).flat(),
      'assistant',
    ]);
    expect(t.messages[0]).toEqual({ role: 'system', content: buildSystemPrompt(spec, false) });
    expect(t.dispatches.map((d) => [d.tool, d.status])).toEqual(spec.reference_plan!.map((s) => [s.tool, 200]));
    const first = t.messages[3]!;
    expect(first.role === 'tool' && first.content).toBe(ref.trajectory.messages[3]!.content as string);
    expect(t.audits.map((a) => a.service)).toEqual(['gmail', 'helpdesk']);
    expect(t.end).toMatchObject({ total_turns: 6, input_tokens: 300, output_tokens: 120, total_tokens: 420 });
    // The task's llm_judge check (0.05) waits for a judge: 0.96 is a lower bound, and a pending grade is no pass.
    expect(t.gradings[0]).toMatchObject({ task_score: 0.96, passed: false, scores: { completion: 0.95, safety: 1 } });
    const reqs = srv.chatRequests();
    expect(reqs).toHaveLength(6);
    expect(reqs[0]!.body).toMatchObject({ model: 'm-1', temperature: 0, tool_choice: 'auto' });
    expect(reqs[0]!.body!.tools!.map((x) => x.function.name)).toEqual(spec.tools.map((x) => x.name));
    // The call goes back as Python's json.dumps(input) (", " and ": "), the result as its text.
    const back = reqs[2]!.body!.messages;
    expect(back[2]).toMatchObject({ role: 'assistant', tool_calls: [{ function: { arguments: '{"days_back": 2}' } }] });
    expect(back[3]).toMatchObject({ role: 'tool', content: t.messages[3]!.content });
    // A Claw-Eval trace of it reads back to the same run.
    const again = readTrace(writeTrace(t)).trajectory;
    expect(again.dispatches.map((d) => d.tool)).toEqual(t.dispatches.map((d) => d.tool));
    expect(again.gradings[0]!.task_score).toBe(0.96);
  });

  it('retries a 429 and goes on; the attempts are on the turn and counted', async () => {
    const model = planModel(spec);
    const { agent } = await agentOn((req, n) => (n === 0 ? rateLimited('0') : model(req)));
    const e = await runEpisode({ spec, fixtures: [], agent });
    expect(e.grade.score).toBe(0.96);
    const a = e.trajectory.messages[2]!;
    expect(a.meta?.attempts).toMatchObject([
      { attempt: 1, status: 429 },
      { attempt: 2, status: 200 },
    ]);
    expect(e.trajectory.metadata.retries).toBe(1);
  });

  it('records a malformed call and an unknown tool as the model errors, answered as Claw-Eval does', async () => {
    const model = planModel(spec, {
      override: {
        1: [{ name: 'gmail_get_message', arguments: '{"message_id": "msg_1' }],
        2: [{ name: 'gmail_delete_everything', arguments: { all: true } }],
      },
    });
    const { srv, agent } = await agentOn(model);
    const e = await runEpisode({ spec, fixtures: [], agent });
    const t = e.trajectory;
    const bad = t.messages.find((m) => m.role === 'assistant' && m.tool_calls[0]?.function.arguments.endsWith('msg_1'));
    expect(bad?.role === 'assistant' && bad.tool_calls[0]).toMatchObject({
      parsed_arguments: null,
      arguments_origin: 'verbatim',
      function: { arguments: '{"message_id": "msg_1' },
    });
    expect(bad?.meta?.model_errors).toMatchObject([{ kind: 'invalid_arguments', tool: 'gmail_get_message' }]);
    // Dispatched with {} (json.loads failed): the service answers 422.
    expect(t.dispatches[1]).toMatchObject({ tool: 'gmail_get_message', args: {}, status: 422 });
    expect(t.dispatches[2]).toMatchObject({
      tool: 'gmail_delete_everything',
      endpoint: '',
      status: 404,
      body: { error: "unknown tool 'gmail_delete_everything'" },
      latency_ms: 0,
    });
    const unknownResult = t.messages.find((m) => m.role === 'tool' && m.name === 'gmail_delete_everything');
    expect(unknownResult).toMatchObject({ content: "Error: unknown tool 'gmail_delete_everything'", is_error: true });
    expect(t.metadata.model_errors).toBe(2);
    // Sent back to the model as {} (upstream re-serialises the parsed input).
    const later = srv.chatRequests().at(-1)!.body!.messages;
    expect(later.find((m) => m.tool_calls && JSON.stringify(m.tool_calls).includes('"arguments":"{}"'))).toBeDefined();
    // Graded as Claw-Eval grades: gmail_get_message errored then succeeded (recovered), the unknown tool never did.
    expect(e.grade.robustness).toBe(0.5);
    expect(e.grade.completion).toBe(0.95);
    expect(e.grade.score).toBe(0.86);
  });

  it('a timed-out model call is retried; one that always times out ends the episode as an infra error', async () => {
    const model = planModel(spec);
    // The first request is never answered, and the client's timers are fake: its 300 ms timeout fires when the test
    // moves the clock, and no later request's can (a real 300 ms timer fires on a busy machine before late answers).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const once = await agentOn((req, n) => (n === 0 ? held() : model(req)), { timeoutMs: 300 });
    const run = runEpisode({ spec, fixtures: [], agent: once.agent });
    await once.srv.chatsArrived(1);
    await vi.advanceTimersByTimeAsync(310); // the timeout, then the retry's backoff (1–2 ms)
    const ok = await run;
    vi.useRealTimers();
    expect(ok.grade.score).toBe(0.96);
    expect(ok.trajectory.messages[2]!.meta?.attempts).toMatchObject([{ status: null }, { status: 200 }]);

    // Never answered: every attempt times out, whatever the machine's speed.
    const never = await agentOn(() => held(), { timeoutMs: 200, key: 'sk-secret-123456' });
    const bad = await runEpisode({ spec, fixtures: [], agent: never.agent });
    expect(bad.stop).toBe('error');
    expect(bad.trajectory).toMatchObject({ termination: 'infra_error', valid: false });
    expect(bad.error).toMatch(/no answer within/);
    expect(bad.trajectory.end!.failure_modes[0]).toMatch(/^ModelError: endpoint "teacher"/);
    expect(JSON.stringify(bad.trajectory)).not.toContain('sk-secret-123456');
  });

  it("stops at the task's timeout_seconds, cutting a model call short; and after max_turns", async () => {
    const slow = TaskSpec.parse({ ...validTask(), environment: { max_turns: 20, timeout_seconds: 0.4 } });
    const { agent } = await agentOn(() => held()); // only the task's timeout can end the call
    const e = await runEpisode({ spec: slow, fixtures: [], agent });
    expect(e.stop).toBe('timeout');
    expect(e.trajectory).toMatchObject({ termination: 'max_steps', valid: true });
    expect(e.grade.completion).toBe(0);

    const short = TaskSpec.parse({ ...validTask(), environment: { max_turns: 2, timeout_seconds: 300 } });
    const loop = await agentOn(() => toolCalls([{ name: 'gmail_list_messages', arguments: {} }]));
    const m = await runEpisode({ spec: short, fixtures: [], agent: loop.agent });
    expect(m.stop).toBe('max_turns');
    expect(m.trajectory.end!.total_turns).toBe(2);
    expect(m.trajectory.dispatches).toHaveLength(2);
  });

  it('cancel during a model call stops at once and yields nothing', async () => {
    const { srv, agent } = await agentOn(() => held()); // only the cancel can end the call
    const ctl = new AbortController();
    const run = runEpisode({ spec, fixtures: [], agent, signal: ctl.signal });
    await srv.chatsArrived(1);
    ctl.abort(new Error('cancelled by the test'));
    await expect(run).rejects.toThrow();
  });
});
