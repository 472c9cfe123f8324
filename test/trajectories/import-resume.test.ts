import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import type { ImportResult } from '../../src/shared/contract/trajectories.contract';
import { ok } from '../helpers/call';
import { makeWorkspaceFile } from '../helpers/files';
import { FIXED_NOW, REPO_ROOT, TS_WORKER, tempDir } from '../helpers/test-core';

const ROWS = 10_000;
const ELEMENTS = 4_000;
const badRow = (i: number) => i % 997 === 13;
const badElement = (i: number) => i % 499 === 7;
/**
 * ~2.2 KB of JSON whitespace per row: the rows pass 16 MB (also after the first kill), so the import reads them in its
 * parse helper thread, while what each row costs to store, index and grade stays small. (Padding the messages' text
 * instead made this test index 20 MB of words: minutes on a busy machine.)
 */
const PAD = ' '.repeat(2_200);

/**
 * A JSONL of messages rows (some lines broken) and a pretty-printed JSON array of τ-bench records (some with a bad
 * reward).
 */
function writeInputs(dir: string) {
  const jsonl = path.join(dir, 'rows.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const rec = {
      task_id: `t${i % 500}`,
      trial: Math.floor(i / 500),
      reward: (i % 3) / 2,
      messages: [
        { role: 'user', content: `row ${i}` },
        { role: 'assistant', content: `answer ${i}` },
      ],
    };
    lines.push(badRow(i) ? `{"task_id": "t${i}", "messages": [` : `{${PAD}${JSON.stringify(rec).slice(1)}`);
  }
  fs.writeFileSync(jsonl, `${lines.join('\n')}\n`);
  const array = path.join(dir, 'records.json');
  const els = Array.from({ length: ELEMENTS }, (_, i) => ({
    task_id: i % 400,
    trial: Math.floor(i / 400),
    reward: badElement(i) ? 'lots' : i % 2,
    traj: [
      { role: 'user', content: `element ${i}` },
      { role: 'assistant', content: 'ok' },
    ],
  }));
  fs.writeFileSync(array, JSON.stringify(els, null, 2));
  let bad = 0;
  for (let i = 0; i < ROWS; i++) bad += badRow(i) ? 1 : 0;
  for (let i = 0; i < ELEMENTS; i++) bad += badElement(i) ? 1 : 0;
  return { files: [jsonl, array], bad, good: ROWS + ELEMENTS - bad };
}

/** What must hold after any kill: rows = committed counters, no (collection, task, trial) twice, issues = refusals. */
function invariants(ws: string) {
  const db = new Database(ws, { readonly: true });
  try {
    const one = (sql: string) => (db.prepare(sql).get() as { n: number | null }).n ?? 0;
    return {
      rows: one('SELECT count(*) AS n FROM trajectories'),
      stored: one('SELECT sum(stored) AS n FROM run_files'),
      records: one('SELECT sum(records) AS n FROM run_files'),
      twice: one(
        'SELECT count(*) AS n FROM (SELECT 1 FROM trajectories GROUP BY collection, source_task_id, trial HAVING ' +
          'count(*) > 1)',
      ),
      bodies: one('SELECT count(*) AS n FROM trajectory_bodies'),
      indexed: one('SELECT count(*) AS n FROM trajectories_fts'),
      issues: one('SELECT count(*) AS n FROM run_issues'),
      refused: one('SELECT sum(refused) AS n FROM run_files'),
      issuesTwice: one('SELECT count(*) AS n FROM (SELECT 1 FROM run_issues GROUP BY file, line HAVING count(*) > 1)'),
    };
  } finally {
    db.close();
  }
}

/**
 * Runs the import (or its resume) in a child process that SIGKILLs itself once a committed batch brings the run's
 * records to `records` (import-child.ts): the kill follows the job's progress, whatever the machine's speed.
 */
async function runAndKill(args: string[], ws: string, records: number): Promise<{ jobId: string; killed: boolean }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/helpers/import-child.ts', ws, String(records), ...args],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, sig) => r(sig)));
  return { jobId: out.split('\n')[0]!, killed: signal === 'SIGKILL' };
}

describe('trajectories.import survives kill -9 of the process running it', () => {
  const cores: Core[] = [];
  afterAll(async () => {
    await Promise.all(cores.map((c) => c.close()));
  });

  it('killed at several points (parsing in a thread), resumed: nothing twice, nothing lost, issues once', async () => {
    const dir = tempDir('resume-');
    const { files, bad, good } = writeInputs(dir);
    // The import's parse helper thread reads inputs of 16 MB or more: the rows, and what is left of them after a kill.
    expect(fs.statSync(files[0]!).size * 0.75).toBeGreaterThan(16 * 1024 * 1024);
    const ws = await makeWorkspaceFile();
    let jobId = '';
    let kills = 0;
    // In the rows (parsed in the helper thread, then inline once less than 16 MB is left), at the end of the rows
    // file, in the JSON array. Batches are 2,000 records: each kill lands after the batch that reaches its mark.
    for (const [i, at] of [1_000, 5_000, 9_500, 11_500].entries()) {
      const r = await runAndKill(i === 0 ? ['start', ...files] : ['resume', jobId], ws, at);
      jobId ||= r.jobId;
      const inv = invariants(ws);
      expect(inv, `after the kill at ${at}`).toMatchObject({
        rows: inv.stored,
        bodies: inv.stored,
        indexed: inv.stored,
        twice: 0,
        issues: inv.refused,
        issuesTwice: 0,
      });
      if (!r.killed) break;
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(2);
    const core = createCore({
      workspacePath: ws,
      clock: () => FIXED_NOW,
      watchIntervalMs: 0,
      checkOutput: true,
      ...TS_WORKER,
    });
    cores.push(core);
    const job = await ok(core, 'jobs.get', { id: jobId });
    let result = job.result as ImportResult | null;
    if (job.state !== 'done') {
      expect(job.state).toBe('interrupted');
      await ok(core, 'jobs.resume', { id: jobId });
      const done = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
      expect(done.state).toBe('done');
      result = done.result as ImportResult;
    }
    expect(result).toMatchObject({
      records: ROWS + ELEMENTS,
      stored: good,
      duplicates: 0,
      refused: bad,
      issueCount: bad,
    });
    expect(invariants(ws)).toMatchObject({ rows: good, twice: 0, issues: bad, issuesTwice: 0, indexed: good });
    const lines = (await ok(core, 'trajectories.importIssues', { runId: result!.runId, limit: 5000 })).issues;
    expect(lines.filter((l) => l.file === files[0]).map((l) => l.line)).toEqual(
      Array.from({ length: ROWS }, (_, i) => i)
        .filter(badRow)
        .map((i) => i + 1),
    );
    // A hang guard, not a speed check: ~25 s on an idle machine, 150 s beside stress-ng --cpu 4 at load 17-23 (five
    // processes, each loading the core through tsx, do most of the work).
  }, 480_000);
});
