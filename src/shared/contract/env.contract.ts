import { z } from 'zod';
import { query } from './define';

const PyJsonText = z.string().describe('JSON text written as Python json.dumps writes it (328.0 stays 328.0)');

export const envContract = {
  'env.replay': query({
    summary:
      'Run tool calls (JSONL text, one {"tool", "args"} per line) in a fresh environment of a task\'s services and ' +
      "answer each dispatch and every service's audit collections.",
    input: z.object({
      taskId: z.string().min(1),
      callsJsonl: z.string().max(64 * 1024 * 1024),
      /** A pinned clock; omitted = the wall clock, as upstream runs. */
      clock: z.iso.datetime({ offset: true }).optional(),
      /** Claw-Eval's error injection (429 / 500 / slow at 0.35 / 0.35 / 0.30); off by default, as upstream. */
      errorRate: z.number().min(0).max(1).default(0),
      /** Seed of the injection's random source, so a replay with errors is repeatable. */
      seed: z.number().int().default(1),
      /**
       * parity: upstream exactly, quirks included. fixed: documented repairs of broken routes and schema mismatches,
       * flagged per call.
       */
      mode: z.enum(['parity', 'fixed']).default('parity'),
    }),
    output: z.object({
      mode: z.enum(['parity', 'fixed']),
      dispatches: z.array(
        z.object({
          tool: z.string(),
          status: z.number().int(),
          isError: z.boolean(),
          text: z.string(),
          body: PyJsonText,
          latencyMs: z.number(),
          delayMs: z.number().optional(),
          repaired: z.string().optional(),
        }),
      ),
      audits: z.record(z.string(), PyJsonText),
    }),
  }),
} as const;
