import { z } from 'zod';
import { TaskSpec } from '../../../../shared/contract/entities/task-spec';

/** The RL package's format id and version (manifest.format); the env server refuses others. */
export const RL_PACKAGE_FORMAT = 'coworkenv-rl-package';
export const RL_PACKAGE_VERSION = 1;
/** The env server's protocol id (README, GET /). */
export const ENV_PROTOCOL = 'coworkenv-env/1';
/** The env server's default port (the tool YAML's server_url, the Python client's default). */
export const DEFAULT_ENV_PORT = 8765;
/** The env server's default bounds (rl-env/episodes.ts), here so the package README can state them. */
export const DEFAULT_ENV_LIMITS = { maxEpisodes: 1024, idleMs: 15 * 60_000, maxStepsPerEpisode: 1000 } as const;

/** One line of tasks.jsonl: everything the env server needs to serve the task, nothing from the workspace. */
export const PackageTaskRecord = z.object({
  task_id: z.string(),
  task_name: z.string(),
  origin: z.enum(['imported', 'generated', 'manual']),
  version: z.number().int().nullable(),
  content_hash: z.string().nullable(),
  /** The environment's pinned clock (ISO): gmail/calendar shift fixture dates by it. */
  clock: z.string(),
  /** The spec with inline records moved out to its fixture files (`inline: true`). */
  spec: TaskSpec,
  fixtures: z.array(
    z.object({
      service: z.string(),
      env: z.string(),
      path: z.string(),
      inline: z.boolean(),
      sha256: z.string(),
      records: z.number().int(),
    }),
  ),
  /** The tools in OpenAI's wrapper form, as the model is given them. */
  tools: z.array(z.record(z.string(), z.unknown())),
  system_prompt: z.string(),
  /** Where the checks come from, and what their derivation (imports) had to say. */
  checks_origin: z.enum(['authored', 'derived_from_task_yaml']),
  notes: z.array(z.string()),
  lineage: z.object({
    slot_id: z.number().int().nullable(),
    scenario: z.string().nullable(),
    reference_date: z.string().nullable(),
    source_path: z.string().nullable(),
  }),
});
export type PackageTaskRecord = z.infer<typeof PackageTaskRecord>;
