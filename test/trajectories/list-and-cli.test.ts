import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Output } from '../../src/shared/contract';
import type { ImportResult } from '../../src/shared/contract/trajectories.contract';
import { writeTrace } from '../../src/main/core/traces';
import { synthTrajectory } from '../helpers/claw-traces';
import { makeWorkspaceFile } from '../helpers/files';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

const canRun = hasGoldens && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASKS = [
  'T018_ticket_triage',
  'T019zh_inventory_check',
  'T002_email_triage',
  'T010_contact_lookup',
  'T016_kb_search',
];
type Page = Output<'trajectories.list'>;

describe.skipIf(!canRun)(
  `coworkenv traces import / export, and trajectories.list${canRun ? '' : ' (skipped: the corpora are absent)'}`,
  () => {
    let ws: string;
    const dir = tempDir('traces-cli-');
    const files: string[] = [];
    const cli = (...argv: string[]) => runCliCaptured(['--workspace', ws, ...argv]);
    const list = async (input: unknown) => {
      const r = await cli('--json', 'call', 'trajectories.list', '--input', JSON.stringify(input));
      const env = JSON.parse(r.stdout) as
        | { ok: true; data: Page }
        | { ok: false; error: { code: string; message: string } };
      return env;
    };
    const page = async (input: unknown) => {
      const env = await list(input);
      if (!env.ok) throw new Error(env.error.message);
      return env.data;
    };

    beforeAll(async () => {
      ws = await makeWorkspaceFile();
      expect((await cli('tasks', 'import', CLAW_ROOT)).code).toBe(0);
      for (const id of TASKS) {
        const f = path.join(dir, `${id}.jsonl`);
        fs.writeFileSync(f, writeTrace(synthTrajectory(id)));
        files.push(f);
      }
    });

    it('imports several files in one command (a job), a line per file, a summary; again: all duplicates', async () => {
      const r = await cli('traces', 'import', ...files);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          /^\/.*T018_ticket_triage\.jsonl \(claw-eval → collection traces-cli-\w+\): /.source +
            /1 records, 1 stored, 0 duplicates, 0 refused$/.source,
          'm',
        ),
      );
      expect(r.stdout).toContain(
        '5 stored (5 graded, 0 of tasks not in the workspace), 0 duplicates, 0 refused; 0 issues',
      );
      const again = await cli('trajectories', 'import', ...files);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('0 stored (0 graded, 0 of tasks not in the workspace), 5 duplicates, 0 refused');
      expect((await page({})).total).toBe(5);
      expect((await page({ limit: 1 })).rows[0]).toMatchObject({
        task_id: 'T018_ticket_triage',
        score: 0,
        passed: false,
      });
    });

    it('exports a stored trace byte-identical to its file; a bad --id is a usage error', async () => {
      const r = await cli('traces', 'export', '--id', '3');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(fs.readFileSync(files[2]!, 'utf8'));
      expect((await cli('traces', 'export', '--id', 'x')).code).toBe(2);
      expect((await cli('traces', 'export', '--id', '99')).code).toBe(1);
    });

    it('refuses a bad trace naming file and line; the good files of the same command are stored, exit 1', async () => {
      const lines = fs.readFileSync(files[0]!, 'utf8').split('\n');
      const bad = path.join(dir, 'bad.jsonl');
      fs.writeFileSync(
        bad,
        lines.map((l, i) => (i === 2 ? l.replace(/"type":"[a-z_]+"/, '"type":"no_such_event"') : l)).join('\n'),
      );
      const other = path.join(dir, 'other.jsonl');
      fs.writeFileSync(other, fs.readFileSync(files[1]!, 'utf8').replace('"persona":"default"', '"persona":"second"'));
      const r = await cli('traces', 'import', bad, other);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3: .*no_such_event`, 'm'));
      expect(r.stdout).toContain(
        '1 stored (1 graded, 0 of tasks not in the workspace), 0 duplicates, 1 refused; 1 issue',
      );
      expect((await page({})).total).toBe(6);
      expect((await cli('traces', 'import', path.join(dir, 'missing.jsonl'))).code).toBe(2);
    });

    it('--task stores a trace of an unknown task under a stored one; --json prints one envelope per file', async () => {
      const f = path.join(dir, 'as-t017.jsonl');
      fs.writeFileSync(f, fs.readFileSync(files[0]!, 'utf8').replace('"persona":"default"', '"persona":"p3"'));
      const r = await cli('--json', 'traces', 'import', f, '--task', 'T017zh_ticket_triage');
      const env = JSON.parse(r.stdout) as { ok: true; data: ImportResult };
      expect(env).toMatchObject({ ok: true, data: { stored: 1, graded: 1, external: 0, refused: 0 } });
      const row = (await page({ sort: [{ field: 'id', dir: 'desc' }], limit: 1 })).rows[0]!;
      expect(row).toMatchObject({
        task_id: 'T017zh_ticket_triage',
        source_task_id: 'T018_ticket_triage',
        graded: true,
      });
    });

    it('list sorts and filters in SQL on the indexed columns, total counting the filtered rows', async () => {
      const all = (await page({ limit: 100 })).rows;
      expect(all.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const byScore = await page({ sort: [{ field: 'score', dir: 'desc' }] });
      const scores = byScore.rows.map((r) => r.score!);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      const ties = byScore.rows.filter((r) => r.score === scores[scores.length - 1]).map((r) => r.id);
      // The primary key ends the order, in the first sort's direction.
      expect(ties).toEqual([...ties].sort((a, b) => b - a));
      const passed = await page({ filters: [{ field: 'passed', conditions: [{ op: 'equals', value: 1 }] }] });
      expect(passed.total).toBe(all.filter((r) => r.passed === true).length);
      const t01 = await page({
        limit: 2,
        sort: [{ field: 'task_id', dir: 'asc' }],
        filters: [{ field: 'task_id', conditions: [{ op: 'startsWith', value: 'T01' }] }],
      });
      expect(t01.total).toBe(all.filter((r) => r.task_id.startsWith('T01')).length);
      expect(t01.rows.map((r) => r.task_id)).toEqual(
        all
          .map((r) => r.task_id)
          .filter((t) => t.startsWith('T01'))
          .sort()
          .slice(0, 2),
      );
      const high = await page({ filters: [{ field: 'score', conditions: [{ op: 'greaterThan', value: 0.5 }] }] });
      expect(high.rows.every((r) => r.score! > 0.5)).toBe(true);
      const chars = (await page({ sort: [{ field: 'char_count', dir: 'asc' }] })).rows.map((r) => r.char_count);
      expect(chars).toEqual([...chars].sort((a, b) => a - b)); // not indexed: sorted by a scan
      const env = await list({ sort: [{ field: 'no_such_column', dir: 'asc' }] });
      expect(env.ok).toBe(false);
    });
  },
);
