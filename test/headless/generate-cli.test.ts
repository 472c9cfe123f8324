import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chat, startScriptedOpenAI, type ScriptedServer } from '../helpers/scripted-openai';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';
import { answer } from '../generation/llm-fixtures';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const workspace = () => path.join(tempDir('cli-gen-'), 'w.coworkenv.db');
const PLAN = [
  'family,services,category,difficulty,language,reference_date,scenario,target_count',
  'ops,"helpdesk, crm, kb",support,hard,en,2026-04-01,cross_service,3',
  'ops,gmail,communication,easy,zh,2026-04-01,single_service,2',
  'ops,gmail,communication,easy,en,2026-04-01,cross_service,2', // the library cannot serve it
].join('\n');

describe('coworkenv generate', () => {
  it('a second run on a plan at target says there is nothing to generate (not "0 slots")', async () => {
    const ws = workspace();
    const csv = path.join(path.dirname(ws), 'plan.csv');
    fs.writeFileSync(csv, PLAN.split('\n').slice(0, 3).join('\n'));
    const run = (...a: string[]) => runCliCaptured(['--workspace', ws, '--empty', ...a]);
    await run('plan', 'import-csv', csv);
    expect((await run('generate')).stdout).toContain('2 slots, 5 candidates');
    const again = await run('generate');
    expect(again.stdout).toBe(
      'nothing to generate: every slot has reached its target (raise target_count, or pass --slots all|ID…)\n',
    );
    expect(again.code).toBe(0);
  });

  it('procedural: per-slot counts, --json, a slot the library cannot serve is named', async () => {
    const ws = workspace();
    const dir = path.dirname(ws);
    fs.writeFileSync(path.join(dir, 'plan.csv'), PLAN);
    const run = (...a: string[]) => runCliCaptured(['--workspace', ws, '--empty', ...a]);
    expect((await run('plan', 'import-csv', path.join(dir, 'plan.csv'))).stdout).toContain('3 slots added, 0 updated');

    const r = await run('generate', '--slots', '1,2', '--seed', '3');
    expect(r.stderr).toMatch(/job [0-9a-f]{8} (running|done)/);
    expect(r.stdout.split('\n')).toEqual([
      'slot 1: generated 3, valid first time 3, repaired 0, discarded 0',
      'slot 2: generated 2, valid first time 2, repaired 0, discarded 0',
      '2 slots, 5 candidates: 5 valid first time, 0 repaired, 0 discarded',
      '',
    ]);
    expect(r.code).toBe(0);

    // Slot 3 cannot be served: it is named, the others are at target, and the exit code says so.
    const all = await run('--json', 'generate', '--slots', 'all', '--per-slot', '1', '--seed', '3');
    const env = JSON.parse(all.stdout);
    expect(env).toMatchObject({
      ok: true,
      data: { slots: 2, candidates: 2, problems: [expect.stringContaining('slot 3')] },
    });
    expect(all.code).toBe(0); // the slots that ran each produced a valid task
    const tasks = await run('--json', 'call', 'tasks.list', '--input', '{"limit":50}');
    expect(JSON.parse(tasks.stdout).data.total).toBe(7);

    expect((await run('generate', '--slots', 'x')).code).toBe(2);
    expect((await run('generate', '--generator', 'llm')).stderr).toContain('--endpoint NAME');
    expect((await run('generate', '--slots', '99')).code).toBe(1);

    // Export → the same CSV columns; importing the export back changes nothing.
    const out = path.join(dir, 'out.csv');
    expect((await run('plan', 'export-csv', '--out', out)).code).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    expect(text.split('\r\n')[2]).toBe('2,ops,gmail,communication,easy,zh,2026-04-01,single_service,2,');
    expect((await run('plan', 'import-csv', out)).stdout).toContain('0 slots added, 3 updated');

    const bad = path.join(dir, 'bad.csv');
    fs.writeFileSync(bad, `${PLAN}\nops,gmail,communication,easy,fr,2026-04-01,single_service,1\n`);
    const refused = await run('plan', 'import-csv', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}:5: language: one of en, zh`);
  });

  it('llm: a slot whose every answer is garbage produced nothing valid → exit 1', async () => {
    const srv = await startScriptedOpenAI({
      // The first request names the slot's services: the gmail + helpdesk slot gets the example, the other garbage.
      script: (req) =>
        JSON.stringify(req.body?.messages ?? '').includes('Use exactly these services, each of them: gmail, helpdesk.')
          ? chat(JSON.stringify(answer()))
          : chat('no JSON here'),
    });
    servers.push(srv);
    const ws = workspace();
    const env = { COWORKENV_KEY_SCRIPTED: 'sk-unused-by-the-server-0000' };
    const run = (...a: string[]) => runCliCaptured(['--workspace', ws, '--empty', ...a], { env });
    expect((await run('endpoints', 'add', 'scripted', '--base-url', srv.baseUrl, '--model', 'm')).code).toBe(0);
    const r = await run('generate', '--slots', 'all', '--per-slot', '1', '--endpoint', 'scripted');
    expect(r.stdout).toContain('0 slots, 0 candidates'); // an empty plan
    expect(r.code).toBe(0);
    const csv = path.join(path.dirname(ws), 'p.csv');
    fs.writeFileSync(
      csv,
      'family,services,category,difficulty,language,reference_date,scenario\n' +
        'ops,"gmail, helpdesk",operations,medium,en,2026-04-10,cross_service\n' +
        'ops,todo,productivity,easy,en,2026-04-10,single_service\n',
    );
    await run('plan', 'import-csv', csv);
    const g = await run('generate', '--slots', 'all', '--per-slot', '1', '--endpoint', 'scripted', '--seed', '8');
    expect(g.stdout).toContain('slot 1: generated 1, valid first time 1, repaired 0, discarded 0\n');
    expect(g.stdout).toContain(
      'slot 2: generated 1, valid first time 0, repaired 0, discarded 1 (not_json 1) — nothing valid',
    );
    expect(g.code).toBe(1);
  });
});
