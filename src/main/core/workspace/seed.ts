import { SlotInput } from '../../../shared/contract/entities/slot';
import demoPlan from '../../../../resources/seed/demo-plan.json';
import { slotsWriter } from '../plan/slots.repo';
import { writeHandle, type Db } from '../db/sqlite';

const hasCreatedAt = (db: Db) =>
  db.prepare("SELECT 1 FROM workspace_meta WHERE key = 'created_at'").get() !== undefined;

/**
 * First open of a new workspace: stamp it, and optionally add the demo coverage plan. Answers
 * whether this call did it. The stamp is the guard: it is written in the same IMMEDIATE
 * transaction as the demo plan, so when several processes start on a new file at once exactly one
 * seeds it. A plan that already has slots (a workspace left unstamped by a crash) gets no demo.
 */
export function seedNewWorkspace(db: Db, now: string, withDemo: boolean): boolean {
  if (hasCreatedAt(db)) return false;
  return db
    .transaction((): boolean => {
      if (hasCreatedAt(db)) return false;
      db.prepare("INSERT INTO workspace_meta (key, value) VALUES ('created_at', ?)").run(now);
      const empty = db.prepare('SELECT 1 FROM coverage_slots LIMIT 1').get() === undefined;
      if (withDemo && empty) {
        const repo = slotsWriter(writeHandle(db));
        for (const r of demoPlan.slots) repo.insertOnly(SlotInput.parse(r), now);
      }
      return true;
    })
    .immediate();
}
