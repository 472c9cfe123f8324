import type { ImportResult } from '../../../../shared/contract/entities/trajectory-row';
import { prepareCached, type ReadDb } from '../../db/sqlite';
import { runsRepo, type RunToolSchemas } from '../../runs/runs.repo';
import { importFilesRepo } from './import-files.repo';
import type { FileFormat } from './sniff';

/** Issues a result carries; the rest are paged with trajectories.importIssues. */
const SHOWN_ISSUES = 200;

/**
 * What an import left, counted from the workspace (so a resumed import counts the batches an
 * earlier attempt committed): the run's counters, each file's, the stored rows' breakdown.
 */
export function importResult(db: ReadDb, runId: number): ImportResult {
  const repo = runsRepo(db);
  const run = repo.run(runId)!;
  const files = importFilesRepo(db).files(runId);
  const stored = repo.storedCounts(runId);
  const collections = [...new Set(files.map((f) => f.collection))];
  const marks = collections.map(() => '?').join(', ');
  // Rows this import's collections supersede, plus its own rows superseded by other collections.
  const superseded = (
    prepareCached(
      db,
      `SELECT count(*) AS n FROM trajectories WHERE superseded = 1 AND (superseded_by IN (${marks}) OR run_id = ?)`,
    ).get(...collections, runId) as { n: number }
  ).n;
  return {
    runId,
    records: run.planned,
    stored: run.stored,
    duplicates: run.skipped,
    refused: run.failed,
    external: stored.external,
    graded: stored.graded,
    warned: stored.warned,
    superseded,
    files: files.map((f) => ({
      path: f.path,
      format: (f.format as FileFormat | null) ?? null,
      collection: f.collection,
      records: f.records,
      stored: f.stored,
      duplicates: f.duplicates,
      refused: f.refused,
      warned: f.warned,
      error: f.error,
    })),
    issues: repo.issues(runId, 0, SHOWN_ISSUES),
    issueCount: repo.issueCount(runId),
    toolSchemas: toolSchemasOf(repo.toolSchemas(runId)),
  };
}

const toolSchemasOf = (t: RunToolSchemas | null) => t && { file: t.file, sha256: t.sha256, tools: t.tools };
