import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { openDb, writeHandle } from '../../src/main/core/db/sqlite';
import { storeTaskSpec } from '../../src/main/core/tasks/spec-store';
import { makeWorkspaceFile } from '../helpers/files';
import { FIXED_NOW } from '../helpers/test-core';
import { validTask } from './valid-task';

/** HW001 valid; HW002 its weights summing to 0.9; HW003 a ticket id leaked into the request. */
export const HAND_WRITTEN = ['HW001_vpn_outage_reply', 'HW002_weights_off', 'HW003_leaky_request'] as const;

/** A closed workspace holding the three hand-written tasks, stored as TaskSpecs (origin manual). */
export async function workspaceWithHandWritten(): Promise<string> {
  const file = await makeWorkspaceFile();
  const db = openDb(file);
  try {
    const weightsOff = validTask();
    (weightsOff.checks as { weight: number }[])[3]!.weight = 0.05;
    const leaky = validTask();
    leaky.prompt = { text: `${leaky.prompt.text} It is TK-3001.` };
    const specs = [validTask(), { ...weightsOff, task_id: HAND_WRITTEN[1] }, { ...leaky, task_id: HAND_WRITTEN[2] }];
    db.transaction(() =>
      specs.forEach((s) =>
        storeTaskSpec(writeHandle(db), TaskSpec.parse(s), { origin: 'manual', now: FIXED_NOW.toISOString() }),
      ),
    )();
  } finally {
    db.close();
  }
  return file;
}
