import { SlotInput } from '../../../shared/contract/entities/slot';
import demoPlan from '../../../../resources/seed/demo-plan.json';
import { slotsWriter } from '../db/repos/slots.repo';
import { writeHandle, type Db } from '../db/sqlite';

/** First open of a new workspace: stamp it, and optionally add the demo coverage plan. */
export function seedNewWorkspace(db: Db, now: string, withDemo: boolean): void {
  db.transaction(() => {
    db.prepare("INSERT OR IGNORE INTO workspace_meta (key, value) VALUES ('created_at', ?)").run(now);
    if (withDemo) {
      const repo = slotsWriter(writeHandle(db));
      for (const r of demoPlan.slots) repo.insertOnly(SlotInput.parse(r), now);
    }
  })();
}
