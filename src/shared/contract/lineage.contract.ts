import { z } from 'zod';
import { query } from './define';
import { Verdict } from './validation.contract';

/** One request in a generated task's life: what was asked, what came back, what the validators said. */
export const LineageRound = z.object({
  round: z.number().int(),
  kind: z.enum(['generate', 'retry', 'repair']),
  /** The chat messages sent (system, user, and for repairs the earlier answer and the feedback). */
  prompt: z.array(z.object({ role: z.string() }).loose()),
  answer: z.string().nullable(),
  error: z.string().nullable(),
  verdicts: z.array(Verdict).nullable(),
  diff: z.string(),
  endpoint: z.string(),
  model: z.string(),
  prompt_tokens: z.number().int().nullable(),
  completion_tokens: z.number().int().nullable(),
  latency_ms: z.number().int(),
  attempts: z.number().int(),
  created_at: z.string(),
});
export type LineageRound = z.infer<typeof LineageRound>;

export const lineageContract = {
  'tasks.lineage': query({
    summary:
      "How an LLM-generated task came to be: every prompt and answer, the validators' verdicts, the repair diff, " +
      'endpoint, model, tokens and latency (empty for other tasks).',
    input: z.object({ taskId: z.string().min(1) }),
    output: z.object({
      taskId: z.string(),
      outcome: z.enum(['valid', 'repaired', 'discarded']).nullable(),
      rounds: z.array(LineageRound),
    }),
  }),
} as const;
