import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { writeTrace } from '../../src/main/core/traces';
import { fail, ok } from '../helpers/call';
import { synthTrajectory, traceIdOf } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const canRun = hasGoldens && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASKS = [
  'T018_ticket_triage',
  'T019zh_inventory_check',
  'T002_email_triage',
  'T010_contact_lookup',
  'T016_kb_search',
];

/** A run of a task the workspace does not hold: T018's run renamed (trace_start carries the task id). */
function unknownTaskTrace(): string {
  const t = synthTrajectory('T018_ticket_triage');
  const renamed: Trajectory = {
    ...t,
    task_id: 'T999_not_imported',
    trace: { ...t.trace!, trace_id: traceIdOf('T999_not_imported') },
  };
  return writeTrace(renamed);
}

describe.skipIf(!canRun)(
  'trajectories.importTrace / get / exportTrace on a workspace with the Claw-Eval corpus',
  () => {
    let core: Core;
    const traces = new Map<string, string>();
    const ids = new Map<string, number>();
    const total = async () => (await ok(core, 'trajectories.list', {})).total;

    beforeAll(async () => {
      core = createTestCore().core;
      const r = await ok(core, 'tasks.import', { paths: [CLAW_ROOT] });
      expect(r.counts.errors).toBe(0);
      for (const id of TASKS) traces.set(id, writeTrace(synthTrajectory(id)));
    });
    afterAll(async () => {
      await core.close();
    });

    it('stores each trace graded, its indexed columns equal to grading.gradeTrace of the same trace', async () => {
      for (const taskId of TASKS) {
        const traceJsonl = traces.get(taskId)!;
        const out = await ok(core, 'trajectories.importTrace', { traceJsonl });
        const graded = await ok(core, 'grading.gradeTrace', { taskId, traceJsonl });
        // Judge-pending weight leaves the row's app completion, score and pass unknown (migration 0018), never 0; a
        // judge-pending safety rule leaves safety, score and pass unknown; a safety violation settles score and pass.
        const g = graded.grade;
        const pending = g.pendingWeight > 0;
        const safetyUnknown = g.safety !== 0 && (g.safetyNotEvaluated?.length ?? 0) > 0;
        const settled = (!pending && !safetyUnknown) || g.safety === 0;
        const app = {
          completion: pending ? null : g.completion,
          safety: safetyUnknown ? null : g.safety,
          score: settled ? g.score : null,
          passed: settled ? g.passed : null,
        };
        expect(out).toMatchObject({ taskId, graded: true, duplicate: false, score: app.score, passed: app.passed });
        ids.set(taskId, out.id);
        const t = synthTrajectory(taskId);
        const { row, grade, trajectory } = await ok(core, 'trajectories.get', { id: out.id });
        const toolCalls = t.messages.reduce((n, m) => n + (m.role === 'assistant' ? m.tool_calls.length : 0), 0);
        expect(row).toMatchObject({
          task_id: taskId,
          trace_id: traceIdOf(taskId),
          model: 'claude-sonnet-4-5',
          source: 'import',
          source_format: 'claw-eval-trace',
          collection: 'claw-eval-traces',
          external: false,
          graded: true,
          message_count: t.messages.length,
          tool_call_count: toolCalls,
          completion: app.completion,
          safety: app.safety,
          robustness: graded.grade.robustness,
          score: app.score,
          passed: app.passed,
          checks_origin: 'derived_from_task_yaml',
          created_at: '2026-03-01T09:00:00.000Z',
        });
        expect(toolCalls).toBe(t.dispatches.length);
        expect(row.char_count).toBeGreaterThan(t.messages[0]!.content!.length);
        expect(grade).toEqual(graded.grade);
        expect(trajectory.messages).toHaveLength(t.messages.length);
        expect(trajectory.dispatches.map((d) => d.call_id)).toEqual(t.dispatches.map((d) => d.call_id));
      }
      expect(await total()).toBe(TASKS.length);
    });

    it('exports every stored trace byte-identical to what was imported', async () => {
      for (const taskId of TASKS) {
        const { traceJsonl } = await ok(core, 'trajectories.exportTrace', { id: ids.get(taskId)! });
        expect(Buffer.from(traceJsonl).equals(Buffer.from(traces.get(taskId)!))).toBe(true);
      }
    });

    it('keeps a non-canonical trace (CRLF) byte for byte, warns its trajectory writes back normalised', async () => {
      const crlf = traces.get('T010_contact_lookup')!.replace(/\n/g, '\r\n');
      const out = await ok(core, 'trajectories.importTrace', { traceJsonl: crlf });
      expect(out.duplicate).toBe(false);
      expect(out.warnings.join('\n')).toMatch(/not byte-for-byte what upstream writes/);
      expect((await ok(core, 'trajectories.exportTrace', { id: out.id })).traceJsonl).toBe(crlf);
    });

    it('re-importing the same trace is a duplicate: the same id, no new row', async () => {
      const before = await total();
      const again = await ok(core, 'trajectories.importTrace', { traceJsonl: traces.get('T018_ticket_triage')! });
      expect(again).toMatchObject({ id: ids.get('T018_ticket_triage'), duplicate: true, graded: true });
      expect(await total()).toBe(before);
    });

    it('a trace of a task not in the workspace is stored ungraded, with a warning', async () => {
      const traceJsonl = unknownTaskTrace();
      const out = await ok(core, 'trajectories.importTrace', { traceJsonl });
      expect(out).toMatchObject({
        taskId: 'T999_not_imported',
        graded: false,
        score: null,
        passed: null,
        duplicate: false,
      });
      expect(out.warnings).toContain(
        'task T999_not_imported is not in the workspace: the trajectory is stored ungraded',
      );
      const got = await ok(core, 'trajectories.get', { id: out.id });
      expect(got.row).toMatchObject({
        graded: false,
        score: null,
        passed: null,
        completion: null,
        checks_origin: null,
      });
      expect(got.grade).toBeNull();
      expect((await ok(core, 'trajectories.exportTrace', { id: out.id })).traceJsonl).toBe(traceJsonl);
    });

    it('--task grades a trace against another stored task, with the gradeTrace warning', async () => {
      const out = await ok(core, 'trajectories.importTrace', {
        traceJsonl: unknownTaskTrace().replace('"persona":"default"', '"persona":"other"'),
        taskId: 'T018_ticket_triage',
      });
      expect(out).toMatchObject({ taskId: 'T018_ticket_triage', graded: true, duplicate: false });
      expect(out.warnings).toContain(
        'the trace is a run of task T999_not_imported, graded here against the checks of T018_ticket_triage',
      );
    });

    it('refuses a truncated trace and an unknown event type with the line number, writing nothing', async () => {
      const lines = traces.get('T002_email_triage')!.split('\n');
      const cut = `${lines.slice(0, 6).join('\n')}\n${lines[6]!.slice(0, 40)}`;
      const bogus = lines
        .map((l, i) => (i === 3 ? l.replace(/"type":"[a-z_]+"/, '"type":"bogus_event"') : l))
        .join('\n');
      expect(bogus).toContain('"type":"bogus_event"');
      const before = await total();
      const e1 = await fail(core, 'trajectories.importTrace', { traceJsonl: cut });
      expect(e1.code).toBe('INVALID_INPUT');
      expect(e1.message).toMatch(/line 7\b/);
      expect(e1.issues?.[0]?.path).toEqual(['traceJsonl', 'line 7']);
      const e2 = await fail(core, 'trajectories.importTrace', { traceJsonl: bogus });
      expect(e2.message).toMatch(/line 4\b/);
      expect(e2.issues?.map((i) => i.path[1])).toContain('line 4');
      expect(await total()).toBe(before);
    });

    it('get and exportTrace of an unknown id answer NOT_FOUND', async () => {
      expect((await fail(core, 'trajectories.get', { id: 9999 })).code).toBe('NOT_FOUND');
      expect((await fail(core, 'trajectories.exportTrace', { id: 9999 })).code).toBe('NOT_FOUND');
    });
  },
);
