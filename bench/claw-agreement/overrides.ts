import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';

const CallSpec = z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() });

/**
 * A hand fix of one task's derived good solution, made after reading its grader.py (what upstream's own grader
 * needs that the reference solution leaves out). `why` says what the grader checks.
 */
export const SolutionOverride = z.strictObject({
  why: z.string().min(1),
  /** Replaces the derived calls entirely. */
  calls: z.array(CallSpec).optional(),
  /** Calls added after the derived ones. */
  extra_calls: z.array(CallSpec).optional(),
  /** Tools whose derived calls are left out. */
  drop_tools: z.array(z.string()).optional(),
  /** Replaces the derived final answer. */
  final: z.string().optional(),
  final_append: z.string().optional(),
  /** Strings cut out of the derived final answer (e.g. a value the grader treats as a leak). */
  final_remove: z.array(z.string()).optional(),
  /** The violation variant's call, when the prohibited tool needs particular arguments. */
  violation: CallSpec.optional(),
  /** No good solution could be made: the task is reported, not counted. */
  unsolvable: z.string().optional(),
});
export type SolutionOverride = z.infer<typeof SolutionOverride>;

export const OVERRIDES_FILE = path.join(__dirname, 'overrides.yaml');

/** task id → override; a bad entry is an error naming the file, the task and the field. */
export function readOverrides(file = OVERRIDES_FILE): Map<string, SolutionOverride> {
  const raw = (YAML.parse(fs.readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
  const out = new Map<string, SolutionOverride>();
  for (const [id, v] of Object.entries(raw)) {
    const r = SolutionOverride.safeParse(v);
    if (!r.success) {
      const i = r.error.issues[0]!;
      throw new Error(`${file}: ${id}.${i.path.join('.')}: ${i.message}`);
    }
    out.set(id, r.data);
  }
  return out;
}
