import { describe, expect, it } from 'vitest';
import { validate } from '../../src/main/core/validation/validate';
import { ok } from '../helpers/call';
import { createTestCore, tempDir } from '../helpers/test-core';
import { VOCAB_TASKS, writeVocabTasks } from '../helpers/vocab-tasks';
import { validTask } from './valid-task';

describe('services_records: our vocabulary binds generated tasks, not imported ones (issue 17)', () => {
  it('an imported task outside the vocabulary passes services_records, each value named as a warning', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [writeVocabTasks(tempDir('claw-vocab-'))] });
    const { jobId } = await ok(core, 'validation.run', { taskIds: [VOCAB_TASKS.calendar, VOCAB_TASKS.crm] });
    expect(await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 })).toMatchObject({ state: 'done' });
    const verdict = async (taskId: string) =>
      (await ok(core, 'validation.report', { taskId })).rounds
        .at(-1)!
        .verdicts.find((v) => v.validator === 'services_records')!;
    expect(await verdict(VOCAB_TASKS.calendar)).toEqual({
      validator: 'services_records',
      status: 'pass',
      messages: [
        {
          field: 'services.0.records.0.organizer',
          message: expect.stringMatching(/^warning: "王明" — an email address .*imported task/),
        },
      ],
    });
    const crm = await verdict(VOCAB_TASKS.crm);
    expect(crm.status).toBe('pass');
    expect(crm.messages.map((m) => m.field)).toEqual(['services.0.records.1.tier', 'services.0.records.1.status']);
    await core.close();
  });

  it('a generated (or hand-written) task with the same value fails it; the same records imported pass', () => {
    const t = validTask();
    const gmail = t.services!.find((s) => s.name === 'gmail')!;
    (gmail.records![0] as Record<string, unknown>).from = '王明';
    const records = (o: { imported?: boolean }) =>
      validate(t, [], o).verdicts.find((v) => v.validator === 'services_records')!;
    expect(records({})).toEqual({
      validator: 'services_records',
      status: 'fail',
      messages: [{ field: 'services.0.records.0.from', message: 'an email address (name@example.com)' }],
    });
    expect(records({ imported: true })).toMatchObject({
      status: 'pass',
      messages: [{ field: 'services.0.records.0.from', message: expect.stringMatching(/^warning: "王明" — /) }],
    });
    // What upstream itself cannot serve fails an imported task too: gmail reads record["from"] in every list.
    delete (gmail.records![0] as Record<string, unknown>).from;
    expect(records({ imported: true })).toMatchObject({
      status: 'fail',
      messages: [{ field: 'services.0.records.0.from', message: expect.stringMatching(/upstream's gmail reads/) }],
    });
  });
});
