import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { writeTrace } from '../../src/main/core/traces';
import { ok } from '../helpers/call';
import { synthTrajectory, traceIdOf } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import { createTestCore, tempDir } from '../helpers/test-core';
import { allRows, importFiles } from '../helpers/trajectory-import';

const canRun = hasGoldens && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));

/** A distinct run of a task: its own trace id and final answer. */
function run(taskId: string, n: number, finalText = `All done (run ${n}).`): string {
  const t = synthTrajectory(taskId, { finalText });
  const traced: Trajectory = { ...t, trace: { ...t.trace!, trace_id: traceIdOf(`${taskId}/${n}`) } };
  return writeTrace(traced);
}

describe.skipIf(!canRun)(
  'Claw-Eval traces through trajectories.import: grading, trials, duplicates, supersession',
  () => {
    let core: Core;
    const root = tempDir('claw-import-');
    const folder = (name: string, traces: Record<string, string>) => {
      const d = path.join(root, name);
      fs.mkdirSync(d, { recursive: true });
      for (const [f, text] of Object.entries(traces)) fs.writeFileSync(path.join(d, f), text);
      return d;
    };
    const rowsOf = async (collection: string) =>
      allRows(core, [{ field: 'collection', operator: 'AND', conditions: [{ op: 'equals', value: collection }] }]);

    beforeAll(async () => {
      core = createTestCore().core;
      expect((await ok(core, 'tasks.import', { paths: [CLAW_ROOT] })).counts.errors).toBe(0);
    }, 120_000);
    afterAll(async () => {
      await core.close();
    });

    it("grades each trace with the shared grader, keeps the trace's own score beside it, numbers trials", async () => {
      const a = folder('run-A', {
        'T018_1.jsonl': run('T018_ticket_triage', 1),
        'T018_2.jsonl': run('T018_ticket_triage', 2),
        'T002_1.jsonl': run('T002_email_triage', 1),
      });
      const r = await importFiles(core, { paths: [a] });
      expect(r).toMatchObject({ stored: 3, graded: 3, external: 0, refused: 0 });
      expect(r.files.map((f) => [path.basename(f.path), f.format, f.collection])).toEqual([
        ['T002_1.jsonl', 'claw-eval', 'run-A'],
        ['T018_1.jsonl', 'claw-eval', 'run-A'],
        ['T018_2.jsonl', 'claw-eval', 'run-A'],
      ]);
      const rows = await rowsOf('run-A');
      expect(rows.map((x) => [x.task_id, x.trial])).toEqual([
        ['T002_email_triage', 0],
        ['T018_ticket_triage', 0],
        ['T018_ticket_triage', 1],
      ]);
      for (const x of rows) {
        const trace = fs.readFileSync(path.join(a, `${x.task_id.slice(0, 4)}_${x.trial + 1}.jsonl`), 'utf8');
        const g = await ok(core, 'grading.gradeTrace', { taskId: x.task_id, traceJsonl: trace });
        const t = synthTrajectory(x.task_id);
        expect(x).toMatchObject({
          source_format: 'claw-eval-trace',
          source_reward: 0.88, // the trace's own grading_result
          source_success: true,
          score: g.grade.score, // ours, beside it
          graded: true,
          model: 'claude-sonnet-4-5',
          agent: 'claude-sonnet-4-5',
          tokens: t.end!.total_tokens,
          duration_ms: Math.round(t.end!.wall_time_s * 1000),
        });
        expect((await ok(core, 'trajectories.exportTrace', { id: x.id })).traceJsonl).toBe(trace);
      }
      const again = await importFiles(core, { paths: [a] });
      expect(again).toMatchObject({ stored: 0, duplicates: 3 });
    }, 60_000);

    it('a replacement collection supersedes the earlier one for the tasks it re-runs, from both sides', async () => {
      const b = folder('run-B', { 'T018_9.jsonl': run('T018_ticket_triage', 9, 'zebracorn replacement answer') });
      const r = await importFiles(core, { paths: [b], supersedes: ['run-A'] });
      expect(r).toMatchObject({ stored: 1, superseded: 2 });
      const a = await rowsOf('run-A');
      expect(a.map((x) => [x.task_id, x.superseded, x.superseded_by])).toEqual([
        ['T002_email_triage', false, null],
        ['T018_ticket_triage', true, 'run-B'],
        ['T018_ticket_triage', true, 'run-B'],
      ]);
      // A later run of T018 into run-A is born superseded; one of T010 is not.
      const late = folder('late', {
        'T018_3.jsonl': run('T018_ticket_triage', 3),
        'T010_1.jsonl': run('T010_contact_lookup', 1),
      });
      await importFiles(core, { paths: [late], collection: 'run-A' });
      const a2 = await rowsOf('run-A');
      expect(a2.filter((x) => x.superseded).map((x) => x.task_id)).toEqual(Array(3).fill('T018_ticket_triage'));
      const cols = await ok(core, 'trajectories.collections', {});
      expect(cols.find((c) => c.name === 'run-B')).toMatchObject({ trajectories: 1, tasks: 1, supersedes: ['run-A'] });
      expect(cols.find((c) => c.name === 'run-A')).toMatchObject({ trajectories: 5, superseded: 3 });

      // Deleting the replacement's only T018 row lifts the supersession, and takes it out of search.
      const hit = await ok(core, 'trajectories.search', { query: 'zebracorn' });
      expect(hit.total).toBe(1);
      const bRow = (await rowsOf('run-B'))[0]!;
      expect(hit.hits[0]!.id).toBe(bRow.id);
      expect(await ok(core, 'trajectories.delete', { ids: [bRow.id] })).toEqual({ deleted: 1 });
      expect((await rowsOf('run-A')).some((x) => x.superseded)).toBe(false);
      expect(await ok(core, 'trajectories.search', { query: 'zebracorn' })).toEqual({ hits: [], total: 0 });
    }, 60_000);

    it('rows with trials: a record twice in one collection is a duplicate; at another trial it is not', async () => {
      const line = (trial: number) =>
        JSON.stringify({
          task_id: 'T018_ticket_triage',
          trial,
          reward: 0.5,
          messages: [{ role: 'user', content: 'hi' }],
        });
      const f = path.join(root, 'rows.jsonl');
      fs.writeFileSync(f, `${line(0)}\n${line(0)}\n${line(1)}\n`);
      const r = await importFiles(core, { paths: [f] });
      expect(r).toMatchObject({ records: 3, stored: 2, duplicates: 1, graded: 2 });
    });
  },
);
