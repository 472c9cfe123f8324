import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Message } from '../../../shared/contract/entities/trajectory';
import { messageText, type UserReply, type UserSimulator } from './agent-types';
import { isAbort, type ModelClient } from './model-client';

/**
 * The LLM-backed simulated user, with Claw-Eval's prompt semantics (runner/user_agent.py at
 * 9365e1a, reference/claw-eval.md §10): a Chinese system prompt casting the model as the task's
 * persona, the text-only transcript (`[用户]: …` / `[助手]: …`, tool calls and results left out,
 * `[user_agent]` prefixes stripped), temperature 0.7; `[DONE]` anywhere in the reply, or an empty
 * reply, ends the conversation; a model that still fails after the client's retries counts as done.
 *
 * Ours: the task's hidden facts (generated tasks) go into the persona section when the persona
 * does not already hold them, so the model can answer with them; upstream tasks have none.
 */
const SYSTEM = (persona: string) => `你是一个模拟用户。你的任务是根据以下人设与AI助手进行对话。

## 你的人设
${persona}

## 规则
1. 始终保持人设角色，用自然口语回复，不要暴露你是AI
2. 根据助手的提问如实回答（基于你的人设信息）
3. 如果助手问了你人设中没有的信息，说"不太清楚具体数字"或类似自然回复
4. 如果助手已经给出了完整的计算结果和建议，且你没有更多问题，输出 [DONE]
5. 如果你对回答满意或助手已充分回答了你的问题，输出 [DONE]
6. 回复要简短自然，像真实用户一样（1-3句话）
`;

/** The persona with the hidden facts it lacks appended (one per line). */
export function personaOf(spec: Pick<TaskSpec, 'user_agent'>): string {
  const persona = spec.user_agent?.persona ?? '';
  const missing = (spec.user_agent?.hidden_facts ?? []).filter((f) => !persona.includes(f));
  return missing.length ? `${persona}\n\n${missing.map((f) => `- ${f}`).join('\n')}` : persona;
}

/** Upstream's _format_transcript: user and assistant text, system and text-less messages skipped. */
export function transcript(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'tool') continue;
    let text = messageText(m);
    if (!text) continue;
    if (m.role === 'user') {
      if (text.startsWith('[user_agent]')) text = text.slice('[user_agent]'.length).trim();
      lines.push(`[用户]: ${text}`);
    } else lines.push(`[助手]: ${text}`);
  }
  return lines.join('\n');
}

/** The two messages sent to the simulated user's model. */
export function userPrompt(spec: Pick<TaskSpec, 'user_agent'>, messages: readonly Message[]) {
  return [
    { role: 'system' as const, content: SYSTEM(personaOf(spec)) },
    {
      role: 'user' as const,
      content: `以下是到目前为止的对话：\n\n${transcript(messages)}\n\n请根据你的人设回复助手的最新消息。如果你满意了就输出 [DONE]。`,
    },
  ];
}

export function modelUser(client: ModelClient, o: { temperature?: number; maxTokens?: number } = {}): UserSimulator {
  const { name, model } = client.endpoint;
  return {
    kind: 'model',
    label: `simulated user: ${name} (${model})`,
    async reply({ spec, messages, signal }): Promise<UserReply> {
      const t0 = Date.now();
      try {
        const r = await client.chat({
          messages: userPrompt(spec, messages),
          temperature: o.temperature ?? 0.7,
          // Upstream asks for 65,536 tokens, more than many local servers' context: the endpoint's own limit applies.
          ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
          signal,
        });
        const raw = (r.message.content ?? '').trim();
        const done = !raw || raw.includes('[DONE]');
        return { text: done ? null : raw, raw: raw || null, usage: r.usage, latencyMs: r.latencyMs };
      } catch (err) {
        if (isAbort(err) || signal.aborted) throw err;
        return { text: null, raw: null, usage: null, latencyMs: Date.now() - t0, error: (err as Error).message };
      }
    },
  };
}
