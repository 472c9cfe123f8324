import fs from 'node:fs';
import path from 'node:path';
import { CLAW_ROOT } from './goldens';

/** Every fixture file of a service in the corpus, tasks/<task>/fixtures/<service>/*.json (none in a bare clone). */
export function corpusFixtureFiles(service: string): string[] {
  const tasks = path.join(CLAW_ROOT, 'tasks');
  if (!fs.existsSync(tasks)) return [];
  return fs.readdirSync(tasks).flatMap((t) => {
    const d = path.join(tasks, t, 'fixtures', service);
    return fs.existsSync(d)
      ? fs
          .readdirSync(d)
          .filter((f) => f.endsWith('.json'))
          .map((f) => path.join(d, f))
      : [];
  });
}
