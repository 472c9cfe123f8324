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
    const core = createCore({ workspacePath, seedDemo: true, watchIntervalMs: 0 });
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
