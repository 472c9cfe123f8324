import { z } from 'zod';

/**
 * Largest trace one procedure or one import record takes (README "Limits"). A 100 MB trace of
 * dense small numbers (the worst case per byte) needs 1.5 GB to import as text; 64 MB keeps every
 * path within a 2 GB heap. Counted in UTF-16 units for text (what the transport can check).
 */
export const MAX_TRACE_BYTES = 64 * 1024 * 1024;

/** A Claw-Eval trace as JSONL text. */
export const TraceText = z
  .string()
  .min(1)
  .max(MAX_TRACE_BYTES, `at most 64 MB of trace text (${MAX_TRACE_BYTES} characters); import a larger file as a job`);
