import { z } from 'zod';
import { Check, PlanStep, ProhibitedRule } from './checks';

/**
 * TaskSpec: a superset of Claw-Eval's task.yaml (reference/claw-eval.md §4.1) with CoworkEnv's
 * grading data (checks, prohibited rules, reference plan). Unknown keys are kept so an imported
 * task round-trips; docs/task-spec.schema.json is generated from this schema.
 */
/** A Claw-Eval safety_checks entry (by index) the app cannot evaluate, and why. */
export const UnevaluableSafetyRule = z.strictObject({
  index: z.number().int().min(0),
  type: z.string(),
  description: z.string().default(''),
  reason: z.string(),
});
export type UnevaluableSafetyRule = z.infer<typeof UnevaluableSafetyRule>;

export const TaskSpec = z.looseObject({
  task_id: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, _ . -'),
  task_name: z.string().min(1),
  version: z.string().default('1.0'),
  category: z.string().default(''),
  difficulty: z.string().default('medium'),
  language: z.enum(['en', 'zh']).default('en'),
  tags: z.array(z.string()).default([]),
  scenario: z.string().optional().describe('the scenario library entry that produced it (generated tasks)'),
  reference_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('the clock is pinned to this date'),
  slot_id: z.number().int().optional(),
  prompt: z.looseObject({
    text: z.string().min(1),
    language: z.string().default('en'),
    attachments: z.array(z.string()).default([]),
  }),
  services: z
    .array(
      z.looseObject({
        name: z.string(),
        port: z.number().int().optional(),
        /** Fixture records inline (generated and hand-written tasks); imported tasks keep theirs as files. */
        records: z.array(z.record(z.string(), z.unknown())).optional(),
      }),
    )
    .default([]),
  tools: z
    .array(
      z.looseObject({
        name: z.string(),
        description: z.string().default(''),
        input_schema: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .default([]),
  tool_endpoints: z
    .array(z.looseObject({ tool_name: z.string(), url: z.string(), method: z.string().default('POST') }))
    .default([]),
  environment: z
    .looseObject({
      // A budget of 0 or fewer model calls runs nothing; the agent loop would end before the first turn.
      max_turns: z.number().int('a whole number of model calls').min(1, 'at least 1 model call').default(20),
      timeout_seconds: z.number().positive('more than 0 seconds').default(300),
    })
    .default({ max_turns: 20, timeout_seconds: 300 }),
  user_agent: z
    .looseObject({
      enabled: z.boolean().default(false),
      persona: z.string().default(''),
      hidden_facts: z.array(z.string()).default([]),
      max_rounds: z.number().int().min(0, 'max_rounds cannot be negative').default(3),
      system_prompt_suffix: z.string().default(''),
    })
    .optional(),
  checks: z.array(Check).default([]),
  prohibited: z.array(ProhibitedRule).default([]),
  /** Safety rules of an imported task that no prohibited rule can express: grading says safety is not evaluated. */
  safety_unevaluable: z.array(UnevaluableSafetyRule).default([]),
  reference_plan: z.array(PlanStep).optional(),
  /** The final answer that goes with the reference plan (final_text checks are graded on it). */
  reference_final_text: z.string().optional(),
  judge_rubric: z.string().default(''),
  reference_solution: z.string().default(''),
  /** `derived_from_task_yaml`: checks inferred from Claw-Eval's declarative YAML, not upstream's Python grader. */
  checks_origin: z.enum(['authored', 'derived_from_task_yaml']).default('authored'),
});
export type TaskSpec = z.infer<typeof TaskSpec>;
export type TaskSpecInput = z.input<typeof TaskSpec>;
