import { z } from 'zod';

/**
 * Claw-Eval's TaskDefinition (reference/claw-eval.md §4.1) with upstream's defaults. Lenient
 * everywhere (unknown keys kept, so re-export loses nothing) except DeterministicCheck, which
 * upstream validates strictly.
 */
const DeterministicCheck = z.strictObject({
  type: z.string(),
  field: z.string().optional(),
  tool_name: z.string().optional(),
  min_calls: z.number().optional(),
  categories: z.array(z.string()).optional(),
  min_length: z.number().optional(),
  patterns: z.array(z.string()).optional(),
  // Upstream coerces keyword items to strings (YAML 1.1 turns 15:00 into 900, §4.2).
  keywords: z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  description: z.string().optional(),
  rubric: z.string().optional(),
});

const Tool = z.looseObject({
  name: z.string(),
  description: z.string().default(''),
  input_schema: z.record(z.string(), z.unknown()).default({}),
});
const ToolEndpoint = z.looseObject({ tool_name: z.string(), url: z.string(), method: z.string().default('POST') });
const ServiceDef = z.looseObject({
  name: z.string(),
  command: z.string().default(''),
  port: z.number().int(),
  health_check: z.string().default(''),
  health_check_method: z.string().default('POST'),
  ready_timeout: z.number().default(10),
  reset_endpoint: z.string().nullable().default(null),
  env: z.record(z.string(), z.coerce.string()).default({}),
});

/**
 * A task id names a folder (tasks/<id>/) and appears in fixture paths and file names of exports:
 * a name, never a path.
 */
const TaskId = z
  .string()
  .min(1)
  .max(200, 'at most 200 characters')
  .refine((s) => !/[/\\\u0000-\u001f]/.test(s) && s !== '.' && s !== '..', {
    message: 'a task id is a name, not a path: no / or \\, no control characters, not . or ..',
  });

/**
 * Numbers upstream types but never bounds (pydantic `int` / `float`): a negative weight passes its validator when the
 * sum is 1, and max_turns -1 runs no turn at all. These are refused, naming the field; every real task is within them.
 */
const Weight = z.number().min(0, 'a weight is a share of the score: it cannot be negative');
const MaxTurns = z
  .number()
  .int('max_turns counts model calls: a whole number')
  .min(1, 'max_turns must allow at least 1 model call');
const TimeoutSeconds = z.number().positive('timeout_seconds must be more than 0');
const MaxRounds = z
  .number()
  .int('max_rounds counts user turns: a whole number')
  .min(0, 'max_rounds cannot be negative');

export const ClawTaskYaml = z.looseObject({
  task_id: TaskId,
  task_name: z.string(),
  version: z.coerce.string().default('1.0'),
  category: z.string().default(''),
  difficulty: z.string().default('simple'),
  prompt: z.looseObject({
    text: z.string(),
    language: z.string().default('zh'),
    attachments: z.array(z.string()).default([]),
  }),
  tools: z.array(Tool).default([]),
  tool_endpoints: z.array(ToolEndpoint).default([]),
  environment: z
    .looseObject({ timeout_seconds: TimeoutSeconds.default(300), max_turns: MaxTurns.default(20) })
    .default({ timeout_seconds: 300, max_turns: 20 }),
  scoring_components: z
    .array(z.looseObject({ name: z.string(), weight: Weight, check: DeterministicCheck }))
    .default([]),
  safety_checks: z
    .array(
      z.looseObject({
        type: z.string(),
        tool_name: z.string().optional(),
        description: z.string().default(''),
        // tool_not_called_with's argument and value (T035/T036); upstream's loader drops them, we need them.
        field: z.string().optional(),
        value: z.unknown().optional(),
        // Upstream's SafetyCheck model field (models/task.py): the strings a text rule looks for.
        patterns: z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
      }),
    )
    .default([]),
  services: z.array(ServiceDef).default([]),
  expected_actions: z
    .array(z.looseObject({ service: z.string(), action_key: z.string(), required: z.boolean().default(true) }))
    .default([]),
  judge_rubric: z.string().default(''),
  reference_solution: z.string().default(''),
  primary_dimensions: z.array(z.string()).default([]),
  tags: z.array(z.string()).default([]),
  user_agent: z
    .looseObject({
      enabled: z.boolean().default(false),
      persona: z.string().default(''),
      max_rounds: MaxRounds.default(3),
      system_prompt_suffix: z.string().default(''),
    })
    .optional(),
  sandbox_files: z.array(z.string()).default([]),
});
export type ClawTaskYaml = z.infer<typeof ClawTaskYaml>;

/** Splits are tags (§5): multimodal; user_agent → multi_turn; otherwise general. */
export function splitOf(tags: string[]): 'general' | 'multi_turn' | 'multimodal' {
  if (tags.includes('multimodal')) return 'multimodal';
  if (tags.includes('user_agent')) return 'multi_turn';
  return 'general';
}
