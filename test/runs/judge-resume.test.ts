import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/shared/contract/entities/run';
import { ok } from '../helpers/call';
import { judgedTasks, teacherScript, verdict } from '../helpers/judged-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { held, type ScriptedServer, startScriptedOpenAI } from '../helpers/scripted-openai';
import { REPO_ROOT } from '../helpers/test-core';

const BUILT_CLI = path.join(REPO_ROOT, 'out/main/cli.js');
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * A run of judge-scored tasks killed while the judge holds its answers: the verdicts committed with their rows stay
 * cached, and the resumed run asks the judge only about the trials it runs again.
 */
describe('a judged run killed midway', { timeout: 180_000 }, () => {
  it.skipIf(!fs.existsSync(BUILT_CLI))('resumes without asking the judge again about stored trials', async () => {
    const tasks = judgedTasks(8);
    const teacher = await startScriptedOpenAI({ script: teacherScript(tasks) });
    // The judge answers `answer` requests, then holds the others: the run stalls after that many stored trials.
    const stall = { answer: 3 };
    const judge = await startScriptedOpenAI({ script: (_req, n) => (n < stall.answer ? verdict(1) : held()) });
    servers.push(teacher, judge);
    const { core, workspacePath: ws } = runWorkspace(tasks);
    const add = { key_source: 'none' as const, timeout_ms: 3_600_000 };
    await ok(core, 'endpoints.add', { name: 'teacher', base_url: teacher.baseUrl, model: 'scripted-teacher', ...add });
    await ok(core, 'endpoints.add', { name: 'judge', base_url: judge.baseUrl, model: 'judge-m', ...add });
    await ok(core, 'grading.setJudge', { endpoint: 'judge' });
    await core.close();

    const cli = (args: string[]) =>
      spawn(process.execPath, [path.join(REPO_ROOT, 'bin/coworkenv.js'), '--workspace', ws, ...args], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const query = (sql: string) => {
      const db = new Database(ws, { readonly: true });
      try {
        return (db.prepare(sql).get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const first = cli(['run', '--tasks', 'all', '--agent', 'endpoint:teacher', '--trials', '1', '--concurrency', '2']);
    const exited = new Promise((resolve) => first.on('exit', resolve));
    let progress = '';
    await new Promise<void>((resolve) =>
      first.stderr!.on('data', (d: Buffer) => {
        progress += d;
        if ([...progress.matchAll(/\((\d+)\/8\)/g)].some((m) => Number(m[1]) >= 3)) resolve();
      }),
    );
    first.kill('SIGKILL');
    await exited;
    expect(query('SELECT count(*) AS n FROM trajectories')).toBe(3);
    expect(query('SELECT count(*) AS n FROM judge_cache')).toBe(3);
    const answered = judge
      .chatRequests()
      .slice(0, 3)
      .map((q) => q.body!.messages[1]!.content);

    stall.answer = Number.POSITIVE_INFINITY;
    const resumed = cli(['--json', 'run', '--resume', '1']);
    let out = '';
    let err = '';
    resumed.stdout!.on('data', (d: Buffer) => void (out += d));
    resumed.stderr!.on('data', (d: Buffer) => void (err += d));
    expect(await new Promise((resolve) => resumed.on('exit', resolve)), err).toBe(0);
    const r = (JSON.parse(out.trim()) as { data: RunResult }).data;
    expect(r).toMatchObject({ planned: 8, stored: 8, skipped: 3, judge_pending: 0, passed: 8, errors: 0 });
    // The stored trials' prompts were never sent again; the others were judged once more each (or were held).
    const sent = judge.chatRequests().map((q) => q.body!.messages[1]!.content);
    for (const p of answered) expect(sent.filter((s) => s === p)).toHaveLength(1);
    expect(query('SELECT count(*) AS n FROM judge_cache')).toBe(8);
    expect(query('SELECT count(*) AS n FROM trajectories WHERE score = 1')).toBe(8);
  });
});
