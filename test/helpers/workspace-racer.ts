/**
 * A child process for race tests (run through tsx): for each line on stdin, `<workspace path> <label>`,
 * it opens that workspace with the demo plan (first start), adds one slot named after the label,
 * closes, and prints one JSON line: the envelope of plan.create, or the error createCore threw.
 */
import readline from 'node:readline';
import { createCore } from '../../src/main/core';

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', async (line) => {
  const [workspacePath, label] = line.split(' ') as [string, string];
  let out: unknown;
  try {
    // A minute for another racer's lock, not the default 5 s: a loaded machine may hold a first start that long, and
    // the race's outcome (one file, one demo plan, every acked write) must not hang on its speed. A write that could
    // never get the lock (SQLite's BUSY_SNAPSHOT and the like) still fails at once.
    const core = createCore({ workspacePath, seedDemo: true, watchIntervalMs: 0, busyTimeoutMs: 60_000 });
    out = await core.dispatch('plan.create', {
      rows: [
        {
          family: label,
          services: ['gmail'],
          category: 'race',
          difficulty: 'easy',
          language: 'en',
          reference_date: '2026-03-02',
          scenario: 'single_service',
        },
      ],
    });
    await core.close();
  } catch (err) {
    out = { ok: false, error: { code: (err as { code?: string }).code ?? 'THROWN', message: (err as Error).message } };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
});
