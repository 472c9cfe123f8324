import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE, suggestBucket } from '../../src/main/core/curation/rules';
import type { CurationRule } from '../../src/shared/contract/entities/curation';
import { ok } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';
import { importFiles } from '../helpers/trajectory-import';

const rule: CurationRule = { pool: 'mixed', updatedAt: '', ...DEFAULT_RULE };

/**
 * Issue 18 item 2: the paper (appendix E, formats.md §6.3) buckets a task by the mean recorded
 * completion of its attempts. Each case is one where the worst/best attempt rule answered otherwise.
 */
const CASES: [number[], string, string][] = [
  [[1, 0, 0], 'UNSOLVABLE', 'solved once in three: mean 0.33 < 0.5 (best 1 said KEEP)'],
  [[1, 0.2, 0.1, 0.1], 'UNSOLVABLE', 'one good attempt: mean 0.35 (best 1 said KEEP)'],
  [[1, 1, 0.9], 'TRIVIAL', 'mean 0.967 ≥ 0.95 (worst 0.9 said KEEP)'],
  [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5], 'TRIVIAL', 'one half-done in 20: mean 0.975'],
];

describe('bucket suggestions by mean completion (the default rule)', () => {
  for (const [values, bucket, why] of CASES)
    it(`${JSON.stringify(values)} → ${bucket}: ${why}`, () => {
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const passes = values.filter((v) => v === 1).length;
      expect(suggestBucket({ scored: values.length, mean, passes, passKnown: values.length }, rule)).toBe(bucket);
    });

  it('[1, 1, 0] is KEEP either way (mean 0.667); no usable value is no suggestion', () => {
    expect(suggestBucket({ scored: 3, mean: 2 / 3, passes: 2, passKnown: 3 }, rule)).toBe('KEEP');
    expect(suggestBucket({ scored: 0, mean: null, passes: 0, passKnown: 0 }, rule)).toBeNull();
  });

  it('trivialAllPass stays available as an opt-in', () => {
    const strict = { ...rule, trivialAllPass: true };
    expect(suggestBucket({ scored: 3, mean: 0.967, passes: 2, passKnown: 3 }, strict)).toBe('KEEP');
  });

  it('the stored suggestions of imported attempts follow the mean', async () => {
    const { core, dir } = createTestCore();
    try {
      const file = path.join(dir, 'attempts.jsonl');
      const line = (task_id: string, trial: number, completion: number) =>
        JSON.stringify({
          messages: [
            { role: 'user', content: 'hello' },
            { role: 'assistant', content: 'hi' },
          ],
          task_id,
          trial,
          completion,
        });
      const lines = [
        ...[1, 0, 0].map((c, i) => line('once', i, c)),
        ...[1, 1, 0.9].map((c, i) => line('mostly', i, c)),
      ];
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      await importFiles(core, { paths: [file] });
      const page = await ok(core, 'curation.tasks', { limit: 10 });
      const suggested = Object.fromEntries(page.rows.map((r) => [r.task_id, r.suggested]));
      expect(suggested).toEqual({ once: 'UNSOLVABLE', mostly: 'TRIVIAL' });
    } finally {
      await core.close();
    }
    // The import is a job in its worker (through tsx in tests): seconds on a busy machine.
  }, 60_000);
});
