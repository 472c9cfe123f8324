import { afterEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/main/core/agents/agent-loop';
import { modelAgent } from '../../src/main/core/agents/model-agent';
import { createModelClient } from '../../src/main/core/agents/model-client';
import { modelUser, personaOf, transcript } from '../../src/main/core/agents/model-user';
import { scriptedAnswer, scriptedUser } from '../../src/main/core/agents/scripted-user';
import { buildSystemPrompt } from '../../src/main/core/agents/system-prompt';
import { checkSlot, generateOne } from '../../src/main/core/generation/procedural/generate';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { planModel } from '../helpers/plan-model';
import { chat, httpError, type Script, type ScriptedServer, startScriptedOpenAI } from '../helpers/scripted-openai';

function multiTurn(language: 'en' | 'zh'): TaskSpec {
  const { slot } = checkSlot({
    id: 1,
    services: ['crm', 'gmail'],
    difficulty: 'medium',
    language,
    reference_date: '2026-03-02',
    scenario: 'multi_turn',
  });
  return generateOne(slot!, 7, 0);
}
const en = multiTurn('en');
const zh = multiTurn('zh');
const [who, when] = en.user_agent!.hidden_facts;

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function client(name: string, model: string, script: Script) {
  const srv = await startScriptedOpenAI({ script });
  servers.push(srv);
  const c = createModelClient(
    // Past the test's hang guard: on a busy machine a short timeout turns a late answer into a timeout and a retry.
    { name, baseUrl: srv.baseUrl, model, apiKey: null, timeoutMs: 600_000 },
    { retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 } },
  );
  return { srv, c };
}

describe('the scripted user', () => {
  it('answers a question naming a hidden fact with it, else says it does not know; [DONE] to an answer', () => {
    expect(scriptedAnswer(en, 'Which Tina do you mean — which customer is she the contact for?')).toBe(who);
    expect(scriptedAnswer(en, 'What time should I propose for the call?')).toBe(when);
    expect(scriptedAnswer(en, 'Which customer, and what time for the call?')).toBe(`${who} ${when}`);
    expect(scriptedAnswer(en, 'Do you want it in French?')).toBe("I don't know.");
    expect(scriptedAnswer(en, 'I saved the draft; nothing was sent.')).toBe('[DONE]');
    const [zhWho, zhWhen] = zh.user_agent!.hidden_facts;
    expect(scriptedAnswer(zh, '请问是哪位客户的联系人？')).toBe(zhWho);
    expect(scriptedAnswer(zh, '电话约在几点？')).toBe(zhWhen);
    expect(scriptedAnswer(zh, '要用英文写吗？')).toBe('这个我不太清楚。');
  });

  it('takes part in a multi-turn episode: answers, then [DONE] ends it; its messages are labelled', async () => {
    const ask = 'Before I start: which customer is Tina the contact for, and what time should I propose for the call?';
    const { srv, c } = await client('teacher', 'm-1', planModel(en, { ask }));
    const e = await runEpisode({ spec: en, fixtures: [], agent: modelAgent(c), user: scriptedUser() });
    const t = e.trajectory;
    const sim = t.messages.filter((m) => m.role === 'user' && m.origin === 'simulated_user');
    expect(sim).toEqual([
      {
        role: 'user',
        origin: 'simulated_user',
        content: `[user_agent]\n${who} ${when}`,
        meta: { timestamp: expect.any(String), simulator: 'scripted user' },
      },
    ]);
    expect(e.stop).toBe('user_done');
    expect(t.termination).toBe('user_stop');
    expect(t.end).toMatchObject({ user_agent_rounds: 1, user_agent_max_rounds: 4, user_agent_done: true });
    expect(t.gradings[0]!.user_agent_meta).toEqual({ rounds_used: 1, max_rounds: 4, done_reached: true });
    expect(t.metadata.user_simulator).toEqual({ kind: 'scripted', label: 'scripted user' });
    expect(e.grade.score).toBe(1);
    // The agent's system prompt carries the task's suffix; the model saw the user's answer.
    expect(srv.chatRequests()[0]!.body!.messages[0]!.content).toBe(buildSystemPrompt(en, true));
    expect(srv.chatRequests()[1]!.body!.messages.at(-1)).toEqual({
      role: 'user',
      content: `[user_agent]\n${who} ${when}`,
    });
  });

  it('without a simulated user the task runs single-turn (no suffix, the first tool-free turn ends it)', async () => {
    const { srv, c } = await client('teacher', 'm-1', planModel(en, { ask: 'Which Tina?' }));
    const e = await runEpisode({ spec: en, fixtures: [], agent: modelAgent(c) });
    expect(e.stop).toBe('no_tool_calls');
    expect(e.trajectory.end!.user_agent_max_rounds).toBe(0);
    expect(srv.chatRequests()[0]!.body!.messages[0]!.content).toBe(buildSystemPrompt(en, false));
  });
});

describe('the LLM simulated user (Claw-Eval prompt semantics)', () => {
  it('gets the persona and the text-only transcript in Chinese, temperature 0.7; [DONE] anywhere ends it', async () => {
    const user = await client('user-sim', 'u-1', [chat(`  ${who}  `), chat('Thanks, looks good [DONE]')]);
    const ask = 'Which customer is Tina with?';
    const agent = await client('teacher', 'm-1', planModel(en, { ask }));
    const e = await runEpisode({ spec: en, fixtures: [], agent: modelAgent(agent.c), user: modelUser(user.c) });
    const [first, second] = user.srv.chatRequests().map((r) => r.body!);
    expect(first!.temperature).toBe(0.7);
    expect(first!.tools).toBeUndefined();
    expect(first!.messages[0]!.content).toContain('你是一个模拟用户。你的任务是根据以下人设与AI助手进行对话。');
    expect(first!.messages[0]!.content).toContain(`## 你的人设\n${en.user_agent!.persona}\n\n## 规则`);
    expect(first!.messages[1]!.content).toBe(
      `以下是到目前为止的对话：\n\n[用户]: ${en.prompt.text}\n[助手]: ${ask}\n\n请根据你的人设回复助手的最新消息。如果你满意了就输出 [DONE]。`,
    );
    // The second transcript: the answer without its [user_agent] prefix; tool calls and results left out.
    expect(second!.messages[1]!.content).toContain(
      `[助手]: ${ask}\n[用户]: ${who}\n[助手]: ${en.reference_final_text}`,
    );
    expect(second!.messages[1]!.content).not.toContain('tool');
    const sim = e.trajectory.messages.filter((m) => m.role === 'user' && m.origin === 'simulated_user');
    expect(sim.map((m) => [m.content, m.meta?.simulator])).toEqual([
      [`[user_agent]\n${who}`, 'simulated user: user-sim (u-1)'],
    ]);
    expect(e.trajectory.metadata).toMatchObject({
      user_simulator: { kind: 'model', label: 'simulated user: user-sim (u-1)' },
      user_simulator_final: 'Thanks, looks good [DONE]',
      user_simulator_tokens: 140,
    });
    expect(e.stop).toBe('user_done');
  });

  it('stops after max_rounds (the next tool-free turn ends it); a user whose model fails counts as done', async () => {
    const chatty = await client('user-sim', 'u-1', () => chat('Hmm, tell me more.'));
    const asker = await client('teacher', 'm-1', () => chat('Anything else?'));
    const e = await runEpisode({ spec: en, fixtures: [], agent: modelAgent(asker.c), user: modelUser(chatty.c) });
    expect(e.stop).toBe('max_rounds');
    expect(e.trajectory.end).toMatchObject({ user_agent_rounds: 4, user_agent_done: false, total_turns: 5 });

    const broken = await client('user-sim', 'u-1', () => httpError(500));
    const asker2 = await client('teacher', 'm-1', () => chat('Anything else?'));
    const f = await runEpisode({ spec: en, fixtures: [], agent: modelAgent(asker2.c), user: modelUser(broken.c) });
    expect(f.stop).toBe('user_done');
    expect(f.trajectory.metadata.user_simulator_error).toMatch(/server error \(HTTP 500/);
    expect(f.trajectory.end!.user_agent_done).toBe(true);
  });

  it('adds hidden facts the persona lacks; strips [user_agent] and skips tool messages in the transcript', () => {
    const spec = { user_agent: { ...en.user_agent!, persona: 'You are Sam.', hidden_facts: ['The code is 42.'] } };
    expect(personaOf(spec)).toBe('You are Sam.\n\n- The code is 42.');
    expect(personaOf(en)).toBe(en.user_agent!.persona);
    expect(
      transcript([
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'Do it', origin: 'task' },
        { role: 'assistant', content: null, reasoning: null, tool_calls: [] },
        { role: 'tool', tool_call_id: 'c', name: 'x', content: '{"a": 1}', is_error: false },
        { role: 'user', content: '[user_agent]\n  yes ', origin: 'simulated_user' },
      ]),
    ).toBe('[用户]: Do it\n[用户]: yes');
  });
});
