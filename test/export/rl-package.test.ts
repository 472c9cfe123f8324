import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { openAiTool } from '../../src/main/core/export/rl/package-tasks';
import { verlToolSchema } from '../../src/main/core/export/rl/verl-schema';
import { corpusExportTasks, hasCorpus } from '../helpers/corpus-tasks';
import { PYTHON, python } from '../helpers/python';
import { clawTaskIds, figure } from '../helpers/shared-data';
import { CLOCK, deterministicTask, handTask, planTurns, rollout } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const walk = (dir: string, base = dir): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p, base) : [path.relative(base, p)];
  });
const bigIntSafe = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));
async function parquetRows(file: string) {
  const b = fs.readFileSync(file);
  return bigIntSafe(await parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) }));
}

const task = deterministicTask();
const other = handTask({
  task_id: 'HW003_tickets_only',
  services: [handTask().spec.services[1]],
  tools: handTask().spec.tools.filter((t) => t.name.startsWith('helpdesk')),
  checks: [{ id: 'raised', kind: 'audit', weight: 1, service: 'helpdesk', action_key: 'updated_tickets' }],
  prohibited: [],
  reference_plan: [{ tool: 'helpdesk_update_ticket', args: { ticket_id: 'TK-3001', priority: 'high' } }],
});

describe('the RL package', () => {
  it('is a complete folder: every file in the manifest with its sha256, per-record hashes, lineage', async () => {
    const out = path.join(tempDir(), 'pkg');
    const A = rollout(task, planTurns(task), task.spec.reference_final_text!, 'A');
    const B = rollout(task, [[{ tool: 'gmail_list_messages', args: { days_back: 2 } }]], 'Done.', 'B');
    const r = await exportRlPackage({
      tasks: [task, other],
      rollouts: [A, B],
      advantage: 'gigpo',
      outDir: out,
      clock: CLOCK,
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'coworkenv-rl-package', format_version: 1, package_id: r.packageId });
    expect(manifest.tool).toEqual({ name: 'coworkenv-studio', version: '0.1.0' });
    expect(manifest.counts).toMatchObject({ tasks: 2, fixtures: 3, toolsets: 2, rollouts: 2, valid_rollouts: 2 });
    expect(manifest.advantage).toMatchObject({ method: 'gigpo', omega: 1, anchor_key: 'state+observation' });
    const onDisk = walk(out)
      .filter((f) => f !== 'manifest.json')
      .sort();
    expect(manifest.files.map((f: { path: string }) => f.path).sort()).toEqual(onDisk);
    for (const f of manifest.files) expect(sha(fs.readFileSync(path.join(out, f.path))), f.path).toBe(f.sha256);
    const lines = fs.readFileSync(path.join(out, 'tasks.jsonl'), 'utf8').trimEnd().split('\n');
    expect(manifest.records.tasks).toEqual(
      lines.map((l, i) => ({ task_id: [task, other][i]!.spec.task_id, sha256: sha(l) })),
    );
    expect(r.packageId).toBe(sha(fs.readFileSync(path.join(out, 'tasks.jsonl'))).slice(0, 16));
    expect(manifest.lineage.tasks[0]).toMatchObject({
      task_id: task.spec.task_id,
      origin: 'manual',
      checks_origin: 'authored',
    });
    expect(manifest.lineage.rollouts.map((x: { trajectory_id: string }) => x.trajectory_id)).toEqual(['A', 'B']);
    const rollouts = fs
      .readFileSync(path.join(out, 'rollouts.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rollouts.map((x) => [x.trajectory_id, x.valid, x.reward])).toEqual([
      ['A', true, 1],
      ['B', true, 0.2],
    ]);
    expect(rollouts[0].steps).toHaveLength(6);
    expect(rollouts[0].messages[0]).toEqual({ role: 'user', content: task.spec.prompt.text, origin: 'task' });
    // verl-agent's GiGPO (the default convention): episode μ, σ over the step rows, A's 6 turns and B's 2.
    const rows = [1, 1, 1, 1, 1, 1, 0.2, 0.2];
    const mu = rows.reduce((x, y) => x + y) / 8;
    const sd = Math.sqrt(rows.reduce((x, y) => x + (y - mu) ** 2, 0) / 7);
    expect(rollouts[0].advantage).toBeCloseTo((1 - mu) / (sd + 1e-6), 12);
    expect(manifest.advantage.convention).toMatchObject({ name: 'verl', source: { commit: expect.any(String) } });
    expect(JSON.parse(fs.readFileSync(path.join(out, 'preview.json'), 'utf8')).counts.valid_groups).toBe(1);
    // A task's records sit in fixture files, not in tasks.jsonl.
    const rec = JSON.parse(lines[0]!);
    expect(rec.spec.services).toEqual([{ name: 'gmail' }, { name: 'helpdesk' }]);
    expect(rec.fixtures.map((f: { path: string; records: number }) => [f.path, f.records])).toEqual([
      [`fixtures/${task.spec.task_id}/gmail/inbox.json`, 2],
      [`fixtures/${task.spec.task_id}/helpdesk/tickets.json`, 2],
    ]);
  });

  it('verl parquet: real nested types (DuckDB DESCRIBE), rows read back equal (hyparquet)', async () => {
    const out = path.join(tempDir(), 'pkg');
    const r = await exportRlPackage({ tasks: [task, other], outDir: out, clock: CLOCK });
    const file = path.join(out, 'verl', 'ts01_gmail-helpdesk', 'train.parquet');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const types = Object.fromEntries(
      (await c.runAndReadAll(`DESCRIBE SELECT * FROM '${file}'`))
        .getRowObjects()
        .map((x) => [x.column_name, x.column_type]),
    );
    expect(types.prompt).toBe('STRUCT("role" VARCHAR, "content" VARCHAR)[]');
    expect(types.reward_model).toBe('STRUCT(style VARCHAR, ground_truth VARCHAR)');
    expect(types.extra_info).toMatch(
      /^STRUCT\(split VARCHAR, "index" BIGINT, task_id VARCHAR, package_id VARCHAR, need_tools_kwargs BOOLEAN, /,
    );
    expect(types.extra_info).toContain(
      'gmail_save_draft STRUCT(create_kwargs STRUCT(task VARCHAR), execute_kwargs STRUCT(task_id VARCHAR), ' +
        'calc_reward_kwargs STRUCT(task_id VARCHAR), release_kwargs STRUCT(task_id VARCHAR))',
    );
    expect(types.extra_info).not.toContain('interaction_kwargs'); // verl 0.9.0 has no interactions
    expect(types.extra_info).toMatch(/tool_selection VARCHAR\[\]\)$/);
    const q = await c.runAndReadAll(
      `SELECT agent_name, extra_info.index AS i, extra_info.tools_kwargs.gmail_send_message.create_kwargs.task AS ` +
        `task, len(prompt) AS n FROM '${file}'`,
    );
    expect(q.getRowObjectsJson()).toEqual([
      {
        agent_name: 'coworkenv_agent',
        i: '0',
        task: JSON.stringify({ task_id: task.spec.task_id, package_id: r.packageId }),
        n: '2',
      },
    ]);
    const rows = await parquetRows(file);
    expect(rows).toHaveLength(1);
    expect(rows[0].prompt[1]).toEqual({ role: 'user', content: task.spec.prompt.text });
    expect(rows[0].extra_info.tool_selection).toEqual(task.spec.tools.map((t) => t.name));
    expect(JSON.parse(rows[0].reward_model.ground_truth)).toMatchObject({
      task_id: task.spec.task_id,
      checks: task.spec.checks,
    });
    const second = await parquetRows(path.join(out, 'verl', 'ts02_helpdesk', 'train.parquet'));
    expect(Object.keys(second[0].extra_info.tools_kwargs)).toEqual(['helpdesk_list_tickets', 'helpdesk_update_ticket']);
  });

  it.skipIf(!PYTHON.ok)(
    'tool YAML as verl reads it (PyYAML): the tool schemas, OmegaConf interpolations escaped, yes stays a string',
    async () => {
      const odd = handTask({
        task_id: 'HW004_odd',
        tools: [
          {
            name: 'gmail_list_messages',
            description: 'yes',
            input_schema: { type: 'object', properties: { q: { type: 'string', description: 'cost \u0024{x} on' } } },
          },
        ],
      });
      const out = path.join(tempDir(), 'pkg');
      await exportRlPackage({ tasks: [task, odd], outDir: out, clock: CLOCK });
      const read = async (rel: string) =>
        JSON.parse(
          await python([
            '-c',
            'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))',
            path.join(out, rel),
          ]),
        );
      const yml = await read('verl/ts01_gmail-helpdesk/tool_config.yaml');
      expect(yml.tools.map((t: { tool_schema: unknown }) => t.tool_schema)).toEqual(
        task.spec.tools.map((t) => verlToolSchema(openAiTool(t)).tool),
      );
      expect(yml.tools[0]).toMatchObject({
        class_name: 'coworkenv_verl.tools.ServiceTool',
        config: { type: 'native', server_url: 'http://127.0.0.1:8765' },
      });
      const o = (await read('verl/ts02_gmail-helpdesk/tool_config.yaml')).tools[0].tool_schema.function;
      expect([o.description, o.parameters.properties.q.description]).toEqual(['yes', 'cost \\\u0024{x} on']);
      expect(await read('verl/agent_loop_config.yaml')).toEqual([
        { name: 'coworkenv_agent', _target_: 'coworkenv_verl.agent_loop.CoworkEnvAgentLoop' },
      ]);
    },
  );

  it.skipIf(!hasCorpus)(
    'the corpus tasks (44 in ../shared): one row each, grouped by identical tools, derived checks in the ground truth',
    async () => {
      const tasks = corpusExportTasks();
      const out = path.join(tempDir(), 'pkg');
      const r = await exportRlPackage({ tasks, outDir: out, clock: CLOCK });
      const all = figure(44, () => clawTaskIds().length);
      expect(r.counts.tasks).toBe(all);
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
      const sets = manifest.verl.toolsets as { id: string; tasks: string[] }[];
      expect(sets.flatMap((s) => s.tasks).sort()).toEqual(tasks.map((t) => t.spec.task_id).sort());
      let rows = 0;
      for (const s of sets) {
        const got = await parquetRows(path.join(out, `verl/${s.id}/train.parquet`));
        expect(got.map((x: { extra_info: { task_id: string } }) => x.extra_info.task_id)).toEqual(s.tasks);
        rows += got.length;
      }
      expect(rows).toBe(all);
      // Rows in task id order: T012 is the twelfth of T001–T044.
      const at = figure(11, () => clawTaskIds().indexOf('T012_expense_report'));
      const t012 = JSON.parse(fs.readFileSync(path.join(out, 'tasks.jsonl'), 'utf8').split('\n')[at]!);
      expect(t012).toMatchObject({
        task_id: 'T012_expense_report',
        checks_origin: 'derived_from_task_yaml',
        clock: CLOCK.toISOString(),
      });
      // T012 reads T011zh's finance data by default (Q8): the same bytes, under T012's folder.
      expect(t012.fixtures[0].path).toBe('fixtures/T012_expense_report/finance/transactions.json');
    },
  );
});
