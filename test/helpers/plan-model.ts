import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { chat, type RecordedRequest, type ScriptedToolCall, type Step, toolCalls } from './scripted-openai';

/**
 * A scripted "model" that solves a task by its reference plan, for the scripted OpenAI server: the
 * n-th assistant turn of the conversation (counted from the request) calls plan step n, then it
 * answers the reference final text. `ask` makes it open with a question to the user (multi-turn
 * tasks) and go on with the plan once a `[user_agent]` answer is in the conversation. `override`
 * inserts turns of its own at chosen positions (a malformed call, an unknown tool…); the plan goes on after.
 */
export function planModel(
  spec: TaskSpec,
  o: { ask?: string; override?: Record<number, ScriptedToolCall[]> } = {},
): (req: RecordedRequest) => Step {
  const plan = spec.reference_plan ?? [];
  return (req) => {
    const msgs = req.body?.messages ?? [];
    const answered = msgs.some((m) => m.role === 'user' && String(m.content).startsWith('[user_agent]'));
    const turns = msgs.filter((m) => m.role === 'assistant').length;
    if (o.ask && !answered) return chat(o.ask);
    const n = o.ask ? turns - 1 : turns;
    const over = o.override?.[n];
    if (over) return toolCalls(over);
    const shift = Object.keys(o.override ?? {}).filter((k) => Number(k) < n).length;
    const step = plan[n - shift];
    if (step) return toolCalls([{ name: step.tool, arguments: step.args }]);
    return chat(spec.reference_final_text ?? 'Done.');
  };
}
