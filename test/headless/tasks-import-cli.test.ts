import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';
import { VOCAB_TASKS, writeBrokenTask, writeVocabTasks } from '../helpers/vocab-tasks';

type Envelope = { ok: true; data: { outcomes: { taskId: string | null; warnings: string[]; errors: string[] }[] } };

describe('coworkenv tasks import: every warning and error, per task (issue 17)', () => {
  it('prints each task with its counts, then its warnings and errors; --json carries all of them', async () => {
    const root = writeBrokenTask(writeVocabTasks(tempDir('claw-vocab-')));
    const ws = () => path.join(tempDir('cli-import-'), 'w.coworkenv.db');
    const r = await runCliCaptured(['--workspace', ws(), 'tasks', 'import', root]);
    expect(r.code).toBe(1); // one task was refused; the other two are imported all the same
    const lines = r.stdout.split('\n');
    const at = (start: string) => lines.findIndex((l) => l.startsWith(start));
    const cal = at(`imported  ${VOCAB_TASKS.calendar} (v1) — 1 warning`);
    const crm = at(`imported  ${VOCAB_TASKS.crm} (v1) — 2 warnings`);
    const broken = at(`error     ${path.join(root, 'tasks', VOCAB_TASKS.broken)} — 1 error`);
    expect([cal, crm, broken].every((i) => i >= 0)).toBe(true);
    expect(lines[cal + 1]).toMatch(
      /^ {10}warning: fixture .*events\.json: record 0 \(event_id evt_201\): field organizer/,
    );
    expect(lines.slice(crm + 1, crm + 3)).toEqual([
      expect.stringMatching(/^ {10}warning: .*field tier: "core"/),
      expect.stringMatching(/^ {10}warning: .*field status: "suspended"/),
    ]);
    expect(lines[broken + 1]).toMatch(/^ {10}error: T900_vocab_broken: .*field start_time: missing/);
    expect(r.stdout).toContain('2 imported, 0 updated, 0 unchanged, 1 with errors, 3 warnings\n');

    const j = await runCliCaptured(['--workspace', ws(), '--json', 'tasks', 'import', root]);
    const env = JSON.parse(j.stdout) as Envelope;
    expect(env.data.outcomes.map((o) => [o.taskId, o.warnings.length, o.errors.length])).toEqual([
      [VOCAB_TASKS.calendar, 1, 0],
      [VOCAB_TASKS.crm, 2, 0],
      [null, 0, 1],
    ]);
  });
});
