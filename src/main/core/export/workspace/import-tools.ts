import type { ReadDb } from '../../db/sqlite';
import type { ToolSet } from '../../trajectories/import/tool-file';
import { runsRepo } from '../../runs/runs.repo';
import { importFilesRepo } from '../../trajectories/import/import-files.repo';

/** Schemas a stored trajectory is exported with when it has none of its own, and where they came from. */
export type GivenTools = {
  tools: unknown[];
  source: { origin: 'tools-file'; file: string; sha256: string } | { origin: 'task' };
};

/**
 * The `--tools` schemas of the import a trajectory came from: one read per import run (its settings
 * name a stored context), however many of its trajectories are exported; null for runs without.
 */
export function importTools(db: ReadDb): (runId: number | null) => GivenTools | null {
  const cache = new Map<number, GivenTools | null>();
  return (runId) => {
    if (runId === null) return null;
    let given = cache.get(runId);
    if (given === undefined) {
      const repo = runsRepo(db);
      const t = repo.toolSchemas(runId);
      const set = t && (importFilesRepo(db).context(t.contextId) as ToolSet | null);
      given = set ? { tools: set.tools, source: { origin: 'tools-file', file: set.file, sha256: set.sha256 } } : null;
      cache.set(runId, given);
    }
    return given;
  };
}
