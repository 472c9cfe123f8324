/**
 * One SFT export of a workspace in a process of its own (peak memory = its maxRSS):
 *   node --import tsx bench/lib/export-run.ts <workspace> <outDir> <dialect> <workerEntry>
 * Prints one JSON line: {ms, maxRssMb, result}. Every stored trajectory is admitted (nothing is curated).
 */
import { createCore } from '../../src/main/core';
import { printTimedJob } from './timed-job';

async function main() {
  const [workspace, outDir, dialect, workerEntry] = process.argv.slice(2);
  const core = createCore({ workspacePath: workspace!, watchIntervalMs: 0, workerEntry: workerEntry! });
  await printTimedJob(core, 'export.sft', {
    dialect: dialect as 'trl',
    outDir: outDir!,
    selection: { allUncurated: true },
  });
}

void main();
