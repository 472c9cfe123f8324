import fs from 'node:fs';
import path from 'node:path';
import type { ExportTask } from '../../src/main/core/export/export-task';
import { deriveTaskSpec } from '../../src/main/core/tasks/claw-eval/derive-checks';
import { readClawTask } from '../../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../../src/main/core/tasks/claw-eval/task-files';
import { CLAW_ROOT } from './goldens';

export const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));

/** The corpus tasks (T001–T044) as an import stores them and the exporters take them. */
export function corpusExportTasks(filter: (id: string) => boolean = () => true): ExportTask[] {
  if (!hasCorpus) return [];
  return locateTasks(CLAW_ROOT)
    .filter((l) => filter(path.basename(l.dir)))
    .map((loc) => {
      const read = readClawTask(loc);
      const { spec, notes } = deriveTaskSpec(read.spec, read.fixtures);
      return {
        spec,
        fixtures: read.fixtures.map((f) => ({ service: f.service, env: f.env, content: f.content, source: f.source })),
        origin: 'imported',
        sourceYaml: read.yamlText,
        version: 1,
        contentHash: read.contentHash,
        sourcePath: read.dir,
        notes,
      };
    });
}
