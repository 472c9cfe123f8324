import type { Agent, AgentReply, AgentToolCall } from './agent-types';
import type { ModelClient } from './model-client';
import { dumpsCompact } from '../py/pyjson';
import { extractMarkupCalls } from './tool-markup';

export type ModelAgentOptions = {
  /** Claw-Eval calls the agent at temperature 0; a run may ask for another. */
  temperature?: number;
  maxTokens?: number;
  seed?: number;
};

/**
 * A teacher or student: any OpenAI-compatible chat-completions endpoint with tool calls. Each turn
 * sends the whole conversation with the task's tools (tool_choice auto) and takes the answer as it
 * came: arguments stay the model's raw string (a broken one is the agent loop's to record and
 * answer), and markup tool calls in the text are parsed as Claw-Eval does when the server has no
 * native ones. Retries on 429/5xx/transport errors (and timeouts) are the client's.
 */
export function modelAgent(client: ModelClient, o: ModelAgentOptions = {}): Agent {
  const { name, model } = client.endpoint;
  return {
    kind: 'model',
    label: `${name} (${model})`,
    model,
    begin() {
      return {
        info: () => ({
          kind: 'model',
          label: `${name} (${model})`,
          endpoint: name,
          model,
          temperature: o.temperature ?? 0,
        }),
        async turn(view): Promise<AgentReply> {
          const r = await client.chat({
            messages: [...view.wire],
            ...(view.tools.length ? { tools: [...view.tools] } : {}),
            temperature: o.temperature ?? 0,
            ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
            ...(o.seed !== undefined ? { seed: o.seed } : {}),
            signal: view.signal,
          });
          const m = r.message;
          let content = m.content || null;
          let toolCalls: AgentToolCall[] = m.tool_calls.map((c) => ({
            id: c.id,
            name: c.function.name,
            arguments: c.function.arguments,
            origin: 'verbatim',
          }));
          if (!toolCalls.length && content) {
            const x = extractMarkupCalls(content);
            if (x.calls.length) {
              content = x.text || null;
              toolCalls = x.calls.map((c) => ({
                id: c.id,
                name: c.name,
                arguments: dumpsCompact(c.input),
                origin: 'serialized',
              }));
            }
          }
          return {
            content,
            reasoning: m.reasoning ?? null,
            toolCalls,
            usage: r.usage,
            latencyMs: r.latencyMs,
            ...(r.attempts.length > 1 ? { attempts: r.attempts } : {}),
            model: r.model,
          };
        },
      };
    },
  };
}
