import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { dumpsPy, type PyValue } from '../../src/main/core/py/pyjson';
import { environmentForSpec } from '../../src/main/core/tasks/task-spec-of';

/**
 * A run of a generated task as an OpenAI-messages JSONL row: its reference plan played on a fresh
 * environment (real results), minus the steps `skip` names, then an answer.
 */
export function planRunJsonl(spec: TaskSpec, skip: number[] = []): string {
  const env = environmentForSpec(spec, [], () => new Date(`${spec.reference_date}T09:00:00Z`));
  const messages: unknown[] = [{ role: 'user', content: spec.prompt.text }];
  (spec.reference_plan ?? []).forEach((s, i) => {
    if (skip.includes(i)) return;
    const d = env.call(s.tool, s.args as PyValue);
    const id = `call_${i}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: s.tool, arguments: JSON.stringify(s.args) } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: dumpsPy(d.body as PyValue) });
  });
  messages.push({ role: 'assistant', content: 'Done: every step is complete.' });
  return JSON.stringify({ task_id: spec.task_id, messages });
}
