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

const ROWS = 20_000;
const ELEMENTS = 8_000;
const badRow = (i: number) => i % 997 === 13;
const badElement = (i: number) => i % 499 === 7;
/** ~1 KB per row: the inputs pass 16 MB, so the import reads them in its parse helper thread. */
const PAD = 'lorem ipsum dolor sit amet '.repeat(38);

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
        { role: 'user', content: `row ${i} ${PAD}` },
        { role: 'assistant', content: `answer ${i}` },
      ],
    };
    lines.push(badRow(i) ? `{"task_id": "t${i}", "messages": [` : JSON.stringify(rec));
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

/** Runs the import (or its resume) in a child process and kills it with SIGKILL once `records` are committed. */
async function runAndKill(args: string[], ws: string, records: number): Promise<{ jobId: string; killed: boolean }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/import-child.ts', ws, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let gone = false;
  void exited.then(() => void (gone = true));
  while (!gone) {
    await new Promise((r) => setTimeout(r, 15));
    if (!out.includes('\n')) continue;
    if (invariants(ws).records >= records) break;
  }
  const killed = !gone;
  if (killed) child.kill('SIGKILL');
  await exited;
  return { jobId: out.split('\n')[0]!, killed };
}

describe('trajectories.import survives kill -9 of the process running it', () => {
  const cores: Core[] = [];
  afterAll(async () => {
    await Promise.all(cores.map((c) => c.close()));
  });

  it('killed at several points (parsing in a thread), resumed: nothing twice, nothing lost, issues once', async () => {
    const dir = tempDir('resume-');
    const { files, bad, good } = writeInputs(dir);
    const ws = await makeWorkspaceFile();
    let jobId = '';
    let kills = 0;
    for (const [i, at] of [2_500, 9_000, 19_000, 23_500].entries()) {
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
  }, 240_000);
});
