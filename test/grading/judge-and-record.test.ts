import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { writeTrace } from '../../src/main/core/traces';
import type { GradeResult } from '../../src/shared/contract/entities/checks';
import { ok } from '../helpers/call';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import { chat, startScriptedOpenAI, type ScriptedServer } from '../helpers/scripted-openai';
import { createTestCore } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

/** T019zh: inventory, 0.2143 of its completion judged (one llm_judge check), the rest deterministic. */
const TASK = 'T019zh_inventory_check';
const canRun = hasGoldens && fs.existsSync(path.join(CLAW_ROOT, 'tasks', TASK));

const cores: Core[] = [];
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * A Claw-Eval trace of TASK whose grading_result recorded 0.64, failed (issue 18's example). Without the recorded
 * orders: they include SKU-9999 and an order without a quantity, which break T019's wrong_order rule (safety 0
 * would settle the score whatever the judge says).
 */
function recordedTrace(): string {
  const t = synthTrajectory(TASK, { keep: (tool) => tool !== 'inventory_create_order' });
  t.gradings = t.gradings.map((g) => ({ ...g, task_score: 0.64, passed: false }));
  return writeTrace(t);
}

async function workspace() {
  const made = createTestCore({ seedDemo: false });
  cores.push(made.core);
  await ok(made.core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks', TASK)] });
  const imported = await ok(made.core, 'trajectories.importTrace', { traceJsonl: recordedTrace() });
  const db = () => new Database(made.workspacePath, { readonly: true });
  const row = () => {
    const d = db();
    try {
      return d
        .prepare(
          `SELECT completion, score, passed, app_pending, source_reward, source_success, disagrees
           FROM trajectories WHERE id = ?`,
        )
        .get(imported.id) as Record<string, number | null>;
    } finally {
      d.close();
    }
  };
  const gradeOf = async () => (await ok(made.core, 'trajectories.get', { id: imported.id })).grade as GradeResult;
  return { ...made, id: imported.id, row, gradeOf };
}

async function judgeServer(core: Core, score = 0.9) {
  const srv = await startScriptedOpenAI({
    script: () => chat(`\`\`\`json\n{"score": ${score}, "reasoning": "orders placed with urgency"}\n\`\`\``),
  });
  servers.push(srv);
  await ok(core, 'endpoints.add', { name: 'judge', base_url: srv.baseUrl, model: 'judge-m', key_source: 'none' });
  await ok(core, 'grading.setJudge', { endpoint: 'judge' });
  return srv;
}

describe.skipIf(!canRun)('score of record beside the app grade; the judge endpoint', () => {
  it('without a judge the judged check is pending: app score unknown (NULL), never 0; the record stays', async () => {
    const { core, row, gradeOf } = await workspace();
    expect(row()).toMatchObject({ completion: null, score: null, passed: null, source_reward: 0.64 });
    expect(row().app_pending).toBeCloseTo(0.2143, 4);
    const g = await gradeOf();
    const judged = g.checks.find((c) => c.kind === 'llm_judge')!;
    expect(judged).toMatchObject({ status: 'not_graded', score: null });
    expect(judged.message).toMatch(/^judge pending: no judge endpoint/);
    expect(g.passed).toBe(false);
    // Curation counts the score of record (0.64 recorded, completion 0.85 in the trace), not a 0 for the judge.
    const t = (await ok(core, 'curation.tasks', {})).rows.find((r) => r.task_id === TASK);
    expect(t).toMatchObject({ scored: 1, mean_completion: 0.85, mean_score: 0.64, passes: 0, pass_known: 1 });
    const basis = await ok(core, 'grading.scoreBasis', { collection: 'claw-eval-traces' });
    expect(basis.collections[0]).toMatchObject({ basis: 'recorded', judgePending: 1, disagreements: 0 });
  });

  it('a judge grades the check with prompt, answer and score as evidence; a re-grade calls nothing', async () => {
    const { core, row, gradeOf } = await workspace();
    const srv = await judgeServer(core);
    const first = await ok(core, 'grading.regrade', { taskId: TASK });
    expect(first).toMatchObject({ regraded: 1, pending: 0, judge: { endpoint: 'judge', asked: 1, failed: [] } });
    expect(srv.chatRequests()).toHaveLength(1);
    const sent = srv.chatRequests()[0]!.body!;
    expect(sent.temperature).toBe(0);
    expect(sent.max_tokens).toBe(8192);
    expect(sent.messages[0]!.content).toMatch(/^You are an evaluation judge for an AI assistant\.\n/);
    expect(sent.messages[1]!.content).toMatch(
      /^## Task Prompt\n[\s\S]+\n\n## Conversation\n\[USER\]: [\s\S]+\n\n## Actions Taken\ninventory: \d+ calls — /,
    );
    expect(sent.messages[1]!.content).toMatch(/\n\n## Rubric\n\S/);

    const judged = (await gradeOf()).checks.find((c) => c.kind === 'llm_judge')!;
    expect(judged).toMatchObject({ status: 'partial', score: 0.9 });
    expect(judged.evidence[0]).toMatchObject({
      kind: 'judge',
      model: 'judge-m',
      score: 0.9,
      reasoning: 'orders placed with urgency',
      prompt: sent.messages[1]!.content,
      answer: expect.stringContaining('"score": 0.9'),
    });
    // The app grade is known now; the score of record is untouched, and the two disagree.
    const r = row();
    expect(r.app_pending).toBeNull();
    expect(r.score).not.toBeNull();
    expect(r).toMatchObject({ source_reward: 0.64, source_success: 0, disagrees: 1 });

    const second = await ok(core, 'grading.regrade', { taskId: TASK });
    expect(second.judge).toMatchObject({ asked: 0, cached: 1 });
    expect(srv.chatRequests()).toHaveLength(1);
    expect((await ok(core, 'grading.judgeSettings', {})).cached).toBe(1);
    const d = await ok(core, 'grading.disagreements', {});
    expect(d.total).toBe(1);
    expect(d.rows[0]).toMatchObject({ recorded_score: 0.64, recorded_passed: false, app_score: r.score });
  });

  it('the collection chooses the basis curation uses; the change is logged and moves the statistics', async () => {
    const { core } = await workspace();
    await judgeServer(core, 1);
    await ok(core, 'grading.regrade', { collection: 'claw-eval-traces' });
    const stats = async () => (await ok(core, 'curation.tasks', {})).rows.find((r) => r.task_id === TASK)!;
    expect((await stats()).mean_score).toBe(0.64);
    const set = await ok(core, 'grading.setScoreBasis', {
      collection: 'claw-eval-traces',
      basis: 'app',
      reason: 'the upstream judge is unavailable to us',
    });
    expect(set).toMatchObject({ before: 'recorded', after: 'app', tasks: 1 });
    const appScore = (await ok(core, 'grading.disagreements', {})).rows[0]!.app_score;
    expect((await stats()).mean_score).toBe(appScore);
    const { log, collections } = await ok(core, 'grading.scoreBasis', {});
    expect(collections[0]).toMatchObject({ basis: 'app', disagreements: 1 });
    expect(log).toEqual([
      expect.objectContaining({ collection: 'claw-eval-traces', before: 'recorded', after: 'app' }),
    ]);
  });

  it('an answer without a score leaves the check pending (not cached, reported), never 0', async () => {
    const { core, row } = await workspace();
    const srv = await startScriptedOpenAI({ script: () => chat('I cannot judge this.') });
    servers.push(srv);
    await ok(core, 'endpoints.add', { name: 'judge', base_url: srv.baseUrl, model: 'judge-m', key_source: 'none' });
    await ok(core, 'grading.setJudge', { endpoint: 'judge' });
    const r = await ok(core, 'grading.regrade', { taskId: TASK });
    expect(r).toMatchObject({ pending: 1, judge: { asked: 1 } });
    expect(r.judge.failed[0]!.problem).toMatch(/no score in the answer/);
    expect(row()).toMatchObject({ score: null, completion: null });
  });

  it('the CLI sets the judge, re-grades and lists disagreements with both sides', async () => {
    const { core, workspacePath } = await workspace();
    const srv = await startScriptedOpenAI({ script: () => chat('{"score": 1, "reasoning": "fine"}') });
    servers.push(srv);
    await ok(core, 'endpoints.add', { name: 'judge', base_url: srv.baseUrl, model: 'judge-m', key_source: 'none' });
    const cli = (...a: string[]) => runCliCaptured(['--workspace', workspacePath, 'grade', ...a]);
    expect((await cli('--set-judge', 'judge')).stdout).toBe('judge: judge (model judge-m, 0 cached answers)\n');
    const re = await cli('--regrade', '--task', TASK);
    expect(re.code, re.stderr).toBe(0);
    expect(re.stdout).toContain('re-graded 1 trajectories, 1 changed, 0 judge pending\njudge judge: 1 asked, 0 cached');
    const d = await cli('--disagreements');
    expect(d.stdout).toMatch(
      /^claw-eval-traces: basis recorded, 1 disagreement\(s\), 0 judge pending, 1 trajectories\n/,
    );
    expect(d.stdout).toMatch(new RegExp(`  #\\d+ ${TASK} trial 0 \\[claw-eval-traces\\]: recorded 0\\.64 fail · app `));
  });
});
