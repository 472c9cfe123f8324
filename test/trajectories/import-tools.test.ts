import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SftManifest } from '../../src/shared/contract/entities/export';
import { makeWorkspaceFile } from '../helpers/files';
import { TELECOM_TOOLS, telecomResults } from '../helpers/tau2-telecom';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

type Obj = Record<string, unknown>;
const tool = (name: string, description = `${name} tool`) => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: { id: { type: 'string' } } } },
});
const call = (id: string, name: string, args: Obj) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** Two τ-bench (v1) records in miniature: no schemas, one ending on a transfer call and its result. */
const TAU_RECORDS = [0, 1].map((task) => ({
  task_id: task,
  trial: 0,
  reward: 1.0,
  info: {},
  traj: [
    { role: 'system', content: '# Airline Agent Policy\nBe helpful.' },
    { role: 'user', content: 'Change my flight.' },
    { role: 'assistant', content: null, tool_calls: [call(`c${task}a`, 'get_user_details', { id: 'u1' })] },
    { role: 'tool', tool_call_id: `c${task}a`, name: 'get_user_details', content: '{"name": "Mia"}' },
    ...(task === 0
      ? [
          { role: 'assistant', content: 'Done, Mia.' },
          { role: 'user', content: 'Thanks ###STOP###' },
        ]
      : [
          { role: 'assistant', content: null, tool_calls: [call(`c${task}b`, 'transfer_to_human_agents', {})] },
          { role: 'tool', tool_call_id: `c${task}b`, name: 'transfer_to_human_agents', content: 'Transfer successful' },
        ]),
  ],
}));
const AIRLINE = [tool('get_user_details'), tool('transfer_to_human_agents')];

describe('trajectories import --tools, and where the export says the schemas came from', () => {
  let ws: string;
  const dir = tempDir('import-tools-');
  const at = (name: string, content: unknown, jsonl = false) => {
    const f = path.join(dir, name);
    const text = jsonl
      ? `${(content as unknown[]).map((x) => JSON.stringify(x)).join('\n')}\n`
      : JSON.stringify(content);
    fs.writeFileSync(f, text);
    return f;
  };
  const cli = (...argv: string[]) => runCliCaptured(['--workspace', ws, ...argv]);
  const exportTo = async (name: string, dialect: string, ...more: string[]) => {
    const out = path.join(dir, name);
    const r = await cli('export', 'sft', '--dialect', dialect, '--out', out, '--all-uncurated', ...more);
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as SftManifest;
    const data = fs.readFileSync(path.join(out, m.files[0]!.path), 'utf8');
    return {
      m,
      rows: data
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Obj),
      stdout: r.stdout,
    };
  };

  beforeAll(async () => {
    ws = await makeWorkspaceFile();
  });

  it('applies an OpenAI tools list to τ-bench records; the manifest names the file and its sha256', async () => {
    const tools = at('airline-tools.json', AIRLINE);
    const r = await cli('trajectories', 'import', at('tau.json', TAU_RECORDS), '--tools', tools);
    expect(r.code, r.stderr).toBe(0);
    const sha = createHash('sha256').update(fs.readFileSync(tools)).digest('hex');
    expect(r.stdout).toContain(`tool schemas: 2 from airline-tools.json (sha256 ${sha.slice(0, 12)}…)`);
    const { m, rows } = await exportTo('trl', 'trl', '--collection', 'tau');
    expect(m.report.exported, JSON.stringify(m.report.rejections)).toBe(2);
    expect(m.toolSchemas).toEqual([
      { id: 'tools-1', origin: 'tools-file', file: 'airline-tools.json', sha256: sha, records: 2 },
    ]);
    expect(m.records.map((x) => x.schemas)).toEqual(['tools-1', 'tools-1']);
    for (const row of rows) expect(row.tools).toEqual(AIRLINE);
    // The transfer call and its result end the second record (issue 18).
    expect((rows[1]!.messages as Obj[]).slice(-2)).toMatchObject([
      { role: 'assistant', tool_calls: [{ function: { name: 'transfer_to_human_agents' } }] },
      { role: 'tool', content: 'Transfer successful' },
    ]);
  });

  it('takes the union of JSONL records carrying tools (flat form too) and keeps a record its own schemas', async () => {
    const flat = { name: 'lookup', description: 'flat form', parameters: { type: 'object', properties: {} } };
    const file = at('rows.jsonl', [{ messages: [], tools: [AIRLINE[0]] }, { tools: [AIRLINE[1], flat] }], true);
    const own = [
      {
        messages: [
          { role: 'system', content: 'Help.' },
          { role: 'user', content: 'Look it up.' },
          { role: 'assistant', tool_calls: [call('o1', 'lookup', { id: 'x' })] },
          { role: 'tool', tool_call_id: 'o1', content: 'found' },
          { role: 'assistant', content: 'Found it.' },
        ],
        tools: [tool('lookup', 'its own definition')],
      },
    ];
    const r = await cli('trajectories', 'import', at('own.jsonl', own, true), '--tools', file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('tool schemas: 3 from rows.jsonl');
    const { m, rows } = await exportTo('own', 'openai', '--collection', 'own', '--min-reward', 'none');
    expect(m.records.map((x) => x.schemas)).toEqual(['own']);
    expect(m.toolSchemas).toEqual([{ id: 'own', origin: 'own', file: null, sha256: null, records: 1 }]);
    expect(rows[0]!.tools).toEqual([tool('lookup', 'its own definition')]);
  });

  it('refuses one name defined two ways, naming both places, and stores nothing', async () => {
    const file = at('clash.jsonl', [{ tools: [tool('get_user_details', 'airline')] }, { tools: [tool('x')] }], true);
    fs.appendFileSync(file, `${JSON.stringify({ tools: [tool('get_user_details', 'retail')] })}\n`);
    const r = await cli('trajectories', 'import', at('tau-clash.json', TAU_RECORDS), '--tools', file);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /tool get_user_details is defined differently in clash\.jsonl line 1 and in clash\.jsonl line 3/,
    );
    const bad = await cli('trajectories', 'import', at('tau-bad.json', TAU_RECORDS), '--tools', at('x.json', { a: 1 }));
    expect(bad.stderr).toMatch(/expected an OpenAI tools list, records carrying tools/);
    const list = await cli('--json', 'call', 'trajectories.collections');
    expect(list.stdout).not.toContain('tau-clash');
  });

  it('τ² telecom results with --tools: every dialect exports both runs with every agent call', async () => {
    const { file, calls } = telecomResults();
    const tools = at('telecom-tools.json', TELECOM_TOOLS);
    expect((await cli('trajectories', 'import', at('telecom.json', file), '--tools', tools)).code).toBe(0);
    for (const d of ['trl', 'openai', 'llamafactory'] as const) {
      const { m, rows } = await exportTo(`telecom-${d}`, d, '--collection', 'telecom', '--min-reward', '0');
      expect(m.report.rejections, d).toEqual({});
      expect(m.report.lint.byCode.user_tool_calls_excluded, d).toBe(2);
      rows.forEach((row, i) => {
        const text = JSON.stringify(row);
        for (const c of calls[i]!.agent) expect(text, d).toContain(d === 'llamafactory' ? c.name : c.id);
        for (const c of calls[i]!.user) expect(text, d).not.toContain(c.id);
      });
    }
  });
});
