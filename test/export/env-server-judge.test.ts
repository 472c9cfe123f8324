import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { request } from '../helpers/http-json';
import { verdict } from '../helpers/judged-tasks';
import { CLOCK, handTask } from '../helpers/rollouts';
import { rateLimited, type ScriptedServer, startScriptedOpenAI } from '../helpers/scripted-openai';
import { tempDir } from '../helpers/temp';

/**
 * The env server's reward for a judge-scored task (`env serve --judge-url`): the judge grades the llm_judge check
 * (cached in memory by content hash); without a judge, or when it fails, the check is pending (weight counted 0,
 * `incomplete`), as the package README says.
 */
const judged = handTask({ task_id: 'HW001_judged' });
const KEY = 'Ev4opaqueJudgeSecret9Lm3';
let dir: string;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

beforeAll(async () => {
  dir = path.join(tempDir(), 'pkg');
  await exportRlPackage({ tasks: [judged], outDir: dir, clock: CLOCK });
});

async function serve(judge?: ScriptedServer, maxAttempts = 4): Promise<RlEnvServer> {
  const j = judge ? { judge: { baseUrl: judge.baseUrl, model: 'judge-m', apiKey: KEY, maxAttempts } } : {};
  const s = await serveRlPackage({ packageDir: dir, port: 0, ...j });
  open.push(s);
  return s;
}

async function gradeOnce(server: RlEnvServer, reply: string) {
  const created = await request(server.url, 'POST', '/episodes', { task_id: 'HW001_judged' });
  const id = created.body.episode_id as string;
  await request(server.url, 'POST', `/episodes/${id}/reply`, { text: reply });
  return (await request(server.url, 'POST', `/episodes/${id}/grade`, {})).body;
}

const tone = (g: { checks: { id: string }[] }) => g.checks.find((c) => c.id === 'tone') as Record<string, unknown>;

describe('env server with a judge', { timeout: 60_000 }, () => {
  it('grades the llm_judge check; the same episode again is answered from its cache', async () => {
    const judge = await startScriptedOpenAI({ script: () => verdict(1), requireKey: KEY });
    open.push(judge);
    const server = await serve(judge);
    const g = await gradeOnce(server, 'Ticket TK-3001 is now high priority.');
    expect(g).toMatchObject({ incomplete: false, pending_weight: 0, judge: { model: 'judge-m', asked: 1, cached: 0 } });
    expect(tone(g)).toMatchObject({ status: 'met', score: 1 });
    const sent = judge.chatRequests()[0]!.body!.messages[1]!.content!;
    expect(sent).toContain('## Conversation\n[USER]: ');
    expect(sent).toContain('[ASSISTANT]: Ticket TK-3001 is now high priority.');
    const again = await gradeOnce(server, 'Ticket TK-3001 is now high priority.');
    expect(again).toMatchObject({ score: g.score, judge: { asked: 0, cached: 1 } });
    expect(judge.chatRequests()).toHaveLength(1);
    expect(JSON.stringify(g)).not.toContain(KEY);
  });

  it('a judge that is down: the check pending with the reason, the grade still answered', async () => {
    const judge = await startScriptedOpenAI({ script: () => rateLimited('0') });
    open.push(judge);
    const server = await serve(judge, 2);
    const g = await gradeOnce(server, 'Done.');
    expect(g).toMatchObject({ incomplete: true, pending_weight: 0.05, judge: { asked: 1, failed: [/429/] } });
    expect(tone(g)).toMatchObject({ status: 'not_graded', score: null, message: /^judge pending: judge-m did not/ });
  });

  it('without a judge the documented behaviour: pending, weight counted 0, no judge field', async () => {
    const server = await serve();
    const g = await gradeOnce(server, 'Done.');
    expect(g).toMatchObject({ incomplete: true, pending_weight: 0.05 });
    expect(g.judge).toBeUndefined();
    expect(tone(g).message).toMatch(/^judge pending: no judge endpoint/);
    // The package README says what the reward does with llm_judge checks, with a judge and without.
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('--judge-url <base URL> --judge-model <model>');
    expect(readme).toMatch(/Without a judge, or when it still fails[\s\S]*"judge pending": `incomplete: true`/);
  });
});
