import { trainingPromptOf } from '../../agents/system-prompt';
import type { AgentView } from './agent-view';
import { codePoints } from './text';

/**
 * The view with its system prompt as agent runs write it now (agents/system-prompt.ts) when it was recorded in
 * upstream's form: the schema block goes, since every dialect passes the schemas in its tools block, and so does
 * the rule against `<tool_call>` markup that Qwen's templates render. Only when the view carries the schemas
 * (without them the prompt's copy is the only one); any other prompt (imports) is left as recorded. The rewrite
 * is a warning on the record, so it is counted.
 */
export function withTrainingPrompt(v: AgentView): AgentView {
  if (v.system === null || !v.tools.length) return v;
  const rebuilt = trainingPromptOf(v.system);
  if (rebuilt === null) return v;
  const saved = codePoints(v.system) - codePoints(rebuilt);
  return {
    ...v,
    system: rebuilt,
    counts: { ...v.counts, chars: v.counts.chars - saved },
    notes: [
      ...v.notes,
      {
        code: 'system_prompt_rebuilt',
        message:
          `the recorded system prompt repeated the tool schemas (${saved} characters) that the tools block carries: ` +
          'written as runs write it now, without them and without the rule against tool-call markup',
      },
    ],
  };
}
