import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { writeTrace } from '../../src/main/core/traces';
import { fail, ok } from '../helpers/call';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const canRun = hasGoldens && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASKS = ['T018_ticket_triage', 'T019zh_inventory_check', 'T002_email_triage', 'T010_contact_lookup'];

describe.skipIf(!canRun)(
  'the trajectories grid: set filter values, select all matching, the full-text filter, evidence locations',
  () => {
    let core: Core;
    const ids = new Map<string, number>();

    beforeAll(async () => {
      core = createTestCore().core;
      await ok(core, 'tasks.import', { paths: [CLAW_ROOT] });
      for (const t of TASKS) {
        const r = await ok(core, 'trajectories.importTrace', { traceJsonl: writeTrace(synthTrajectory(t)) });
        ids.set(t, r.id);
      }
      // A second run of T018 without the prohibited close (the full run has it: safety 0): another score.
      const partial = synthTrajectory('T018_ticket_triage', { keep: (tool) => tool !== 'helpdesk_close_ticket' });
      const r = await ok(core, 'trajectories.importTrace', {
        traceJsonl: writeTrace(partial),
        collection: 'partial-runs',
      });
      ids.set('T018 partial', r.id);
    });
    afterAll(() => core.close());

    it('the text filter keeps the rows trajectories.search finds, in SQL with sort and the other filters', async () => {
      const word = 'helpdesk_close_ticket';
      const found = await ok(core, 'trajectories.search', { query: word });
      expect(found.hits.map((h) => h.id)).toEqual([ids.get('T018_ticket_triage')]);
      const page = await ok(core, 'trajectories.list', { text: { query: word, mode: 'words' } });
      expect(page.rows.map((r) => r.id)).toEqual([ids.get('T018_ticket_triage')]);
      expect(page).toMatchObject({ total: 1, unfiltered: 5 });
      // Every T018 run mentions helpdesk_get_ticket; the filter on task_id narrows further, score sorts.
      const both = await ok(core, 'trajectories.list', {
        text: { query: 'helpdesk_get*', mode: 'words' },
        sort: [{ field: 'score', dir: 'asc' }],
      });
      expect(both.rows.map((r) => r.id)).toEqual([ids.get('T018_ticket_triage'), ids.get('T018 partial')]);
      expect(both.rows[0]!.score!).toBeLessThan(both.rows[1]!.score!);
      const none = await ok(core, 'trajectories.list', {
        text: { query: 'helpdesk_get*', mode: 'words' },
        filters: [{ field: 'collection', operator: 'AND', conditions: [{ op: 'equals', value: 'nothing' }] }],
      });
      expect(none).toMatchObject({ total: 0, rows: [] });
    });

    it('FTS5 syntax in fts mode; a broken query is INVALID_INPUT on `text`, not a crash', async () => {
      const r = await ok(core, 'trajectories.list', {
        text: { query: 'helpdesk_close_ticket OR inventory_list_products', mode: 'fts' },
      });
      expect(new Set(r.rows.map((x) => x.task_id))).toEqual(new Set(['T018_ticket_triage', 'T019zh_inventory_check']));
      const e = await fail(core, 'trajectories.list', { text: { query: '"unterminated', mode: 'fts' } });
      expect(e.code).toBe('INVALID_INPUT');
      expect(e.issues?.[0]?.path).toEqual(['text']);
    });

    it("values: a column's distinct values under the other filters and the text filter; ids select them", async () => {
      const v = await ok(core, 'trajectories.values', { field: 'collection' });
      expect(v.values).toEqual([
        { value: 'claw-eval-traces', count: 4 },
        { value: 'partial-runs', count: 1 },
      ]);
      const under = await ok(core, 'trajectories.values', {
        field: 'task_id',
        text: { query: 'helpdesk_get*', mode: 'words' },
      });
      expect(under.values).toEqual([{ value: 'T018_ticket_triage', count: 2 }]);
      const all = await ok(core, 'trajectories.ids', {
        filters: [{ field: 'task_id', operator: 'AND', conditions: [{ op: 'in', values: ['T018_ticket_triage'] }] }],
      });
      expect(all).toEqual({ ids: [ids.get('T018_ticket_triage'), ids.get('T018 partial')], total: 2 });
      const quick = await ok(core, 'trajectories.list', { quick: 'partial' });
      expect(quick.rows.map((r) => r.id)).toEqual([ids.get('T018 partial')]);
    });

    it('every dispatch evidence names the call and the message that made it; audits and messages exist', async () => {
      for (const id of ids.values()) {
        const { trajectory: t, grade } = await ok(core, 'trajectories.get', { id });
        expect(grade).not.toBeNull();
        const evidence = [
          ...grade!.checks.flatMap((c) => c.evidence),
          ...grade!.safetyViolations.map((v) => v.evidence),
        ];
        expect(evidence.length).toBeGreaterThan(0);
        for (const e of evidence) {
          if (e.kind === 'dispatch') {
            const m = t.messages[e.message!];
            expect(m?.role).toBe('assistant');
            const calls = m?.role === 'assistant' ? m.tool_calls : [];
            expect(calls.some((c) => c.id === e.call_id && c.function.name === e.tool)).toBe(true);
            expect(t.dispatches[e.index]!.call_id).toBe(e.call_id);
          } else if (e.kind === 'audit') {
            const snap = t.audits.filter((a) => a.service === e.service).at(-1);
            expect((snap!.data[e.action_key] as unknown[])[e.index]).toBeDefined();
          } else if (e.kind === 'message') expect(t.messages[e.index]?.role).toBe('assistant');
        }
      }
    });
  },
);
