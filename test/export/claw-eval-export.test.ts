import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskSpecOfExport } from '../../src/main/core/tasks/claw-eval/coworkenv-block';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import { deriveTaskSpec } from '../../src/main/core/tasks/claw-eval/derive-checks';
import { readClawTask } from '../../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../../src/main/core/tasks/claw-eval/task-files';
import { corpusExportTasks, hasCorpus } from '../helpers/corpus-tasks';
import { CLAW_ROOT } from '../helpers/goldens';
import { PYTHON, python } from '../helpers/python';
import { clawTaskIds, figure } from '../helpers/shared-data';
import { deterministicTask, handTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';
import { trickyTask } from '../helpers/tricky-task';

const reimport = (out: string) => new Map(locateTasks(out).map((l) => [path.basename(l.dir), readClawTask(l)]));

describe('Claw-Eval export', () => {
  it('TaskSpec → task folder → import: the same TaskSpec (records, checks, plan, odd YAML 1.1 strings)', async () => {
    const tasks = [handTask(), deterministicTask(), trickyTask()].map((t, i) =>
      i === 1 ? { ...t, spec: { ...t.spec, task_id: 'HW002_det' } } : t,
    );
    const out = path.join(tempDir(), 'claw');
    const r = await exportClawEval({ tasks, outDir: out });
    expect(r.counts).toMatchObject({ tasks: 3, verbatim: 0, from_spec: 3 });
    const back = reimport(out);
    expect([...back.keys()].sort()).toEqual(tasks.map((t) => t.spec.task_id).sort());
    for (const t of tasks) {
      const read = back.get(t.spec.task_id)!;
      expect(read.warnings, t.spec.task_id).toEqual([]);
      expect(taskSpecOfExport(read), t.spec.task_id).toStrictEqual(t.spec);
    }
    // Upstream's layout: root-relative fixture paths in services[].env, the files where they point.
    const y = back.get('HW010_tricky_yaml')!.spec;
    expect(y.services.map((s) => s.env)).toEqual([
      { HELPDESK_FIXTURES: 'tasks/HW010_tricky_yaml/fixtures/helpdesk/tickets.json' },
      {
        WEB_SEARCH_FIXTURES: 'tasks/HW010_tricky_yaml/fixtures/web/search_results.json',
        WEB_FETCH_FIXTURES: 'tasks/HW010_tricky_yaml/fixtures/web/pages.json',
      },
    ]);
    expect(fs.readFileSync(path.join(out, 'tasks/HW010_tricky_yaml/fixtures/web/pages.json'), 'utf8')).toBe('[]\n');
    for (const id of back.keys()) {
      expect(fs.existsSync(path.join(out, 'tasks', id, 'grader.py'))).toBe(true);
      const grading = JSON.parse(fs.readFileSync(path.join(out, 'tasks', id, 'grading.json'), 'utf8'));
      expect(grading.checks).toEqual(tasks.find((t) => t.spec.task_id === id)!.spec.checks);
    }
    expect(r.warnings).toContain(
      'HW001_vpn_outage_reply: tone (llm_judge) not graded by grader.py: scores are lower bounds',
    );
  });

  it.skipIf(!hasCorpus)(
    'imported corpus tasks come back byte for byte: task.yaml, fixtures, and the same import',
    async () => {
      const tasks = corpusExportTasks();
      const out = path.join(tempDir(), 'claw');
      const r = await exportClawEval({ tasks, outDir: out });
      const all = figure(44, () => clawTaskIds().length);
      expect(r.counts).toMatchObject({ tasks: all, verbatim: all, from_spec: 0 });
      const back = reimport(out);
      expect(back.size).toBe(all);
      for (const t of tasks) {
        const id = t.spec.task_id;
        expect(fs.readFileSync(path.join(out, 'tasks', id, 'task.yaml'))).toEqual(
          fs.readFileSync(path.join(CLAW_ROOT, 'tasks', id, 'task.yaml')),
        );
        for (const f of t.fixtures)
          expect(fs.readFileSync(path.join(out, f.source!)), `${id} ${f.source}`).toEqual(
            fs.readFileSync(path.join(CLAW_ROOT, f.source!)),
          );
        const read = back.get(id)!;
        expect(read.contentHash, id).toBe(t.contentHash);
        expect(taskSpecOfExport(read)).toBeUndefined(); // no coworkenv block: a Claw-Eval task
        expect(deriveTaskSpec(read.spec, read.fixtures).spec).toStrictEqual(t.spec);
      }
      // T012 reads T011zh's finance fixture by default (Q8): written at its upstream path, once.
      expect(fs.existsSync(path.join(out, 'tasks/T011zh_expense_report/fixtures/finance/transactions.json'))).toBe(
        true,
      );
      const alone = path.join(tempDir(), 'claw');
      await exportClawEval({ tasks: tasks.filter((t) => t.spec.task_id === 'T012_expense_report'), outDir: alone });
      expect(readClawTask(locateTasks(alone)[0]!).contentHash).toBe(
        tasks.find((t) => t.spec.task_id === 'T012_expense_report')!.contentHash,
      );
    },
  );

  it.skipIf(!PYTHON.ok)(
    "every task.yaml passes a mirror of Claw-Eval's loader (PyYAML + pydantic TaskDefinition)",
    async () => {
      const tasks = [handTask(), trickyTask(), ...corpusExportTasks((id) => id.startsWith('T04'))];
      const out = path.join(tempDir(), 'claw');
      await exportClawEval({ tasks, outDir: out });
      const files = tasks.map((t) => path.join(out, 'tasks', t.spec.task_id, 'task.yaml'));
      const res = JSON.parse(await python([path.join(__dirname, 'fixtures/claw_task_model.py'), ...files]));
      expect(Object.values(res)).toEqual(files.map(() => 'ok'));
    },
  );

  it('refuses what it cannot write faithfully, before writing anything', async () => {
    const [a] = corpusExportTasks((id) => id === 'T011zh_expense_report');
    const tasks = hasCorpus
      ? [
          a!,
          {
            ...a!,
            spec: { ...a!.spec, task_id: 'T012_expense_report' },
            fixtures: a!.fixtures.map((f) => ({ ...f, content: '[]' })),
          },
        ]
      : [];
    const out = path.join(tempDir(), 'claw');
    if (hasCorpus)
      await expect(exportClawEval({ tasks, outDir: out })).rejects.toThrow(
        'tasks/T011zh_expense_report/fixtures/finance/transactions.json is written by T011zh_expense_report ' +
          'and by T012_expense_report with different contents',
      );
    await expect(exportClawEval({ tasks: [handTask(), handTask()], outDir: out })).rejects.toThrow(
      /task HW001_vpn_outage_reply is given twice/,
    );
    await expect(
      exportClawEval({ tasks: [handTask({ services: [{ name: 'slack', records: [] }] })], outDir: out }),
    ).rejects.toThrow(/service slack is not one Claw-Eval's harness can run/);
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.readdirSync(path.dirname(out))).toEqual([]);
  });
});
