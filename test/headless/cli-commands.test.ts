import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/main/headless/commands';
import { CLAW_ROOT } from '../helpers/goldens';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const newFile = () => path.join(tempDir('cli-cmd-'), 'w.coworkenv.db');

describe('the command table', () => {
  it('--help lists every command of the table; each command has its own --help with its options', async () => {
    const all = await runCliCaptured(['--help']);
    for (const c of COMMANDS) expect(all.stdout).toContain(`coworkenv ${c.words.join(' ')}`);
    for (const c of COMMANDS) {
      const ws = newFile();
      const r = await runCliCaptured(['--workspace', ws, ...c.words, '--help']);
      expect(r.code, c.words.join(' ')).toBe(0);
      expect(r.stdout).toContain(`Usage: coworkenv ${c.words.join(' ')}`);
      for (const name of Object.keys(c.options ?? {})) expect(r.stdout).toContain(`--${name}`);
      expect(fs.existsSync(ws), 'help opens no workspace').toBe(false);
    }
  });

  it("a flag of another command is refused with the command's help hint, and creates no workspace", async () => {
    const ws = newFile();
    const r = await runCliCaptured(['--workspace', ws, 'tasks', 'import', 'x', '--port', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--port/);
    expect(r.stderr).toContain('coworkenv tasks import --help');
    expect(fs.existsSync(ws)).toBe(false);
  });

  it('export lint and export diff read only their files: they never create a workspace', async () => {
    const ws = newFile();
    const dir = tempDir('cli-lint-');
    const lint = await runCliCaptured(['--workspace', ws, 'export', 'lint', dir]);
    expect(lint.code).toBe(1);
    const diff = await runCliCaptured(['--workspace', ws, 'export', 'diff', dir, dir]);
    expect(diff.code).toBe(1);
    expect(fs.existsSync(ws)).toBe(false);
  });

  it('an unknown sub-command names both words', async () => {
    const r = await runCliCaptured(['tasks', 'frob']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "tasks frob"');
  });
});

describe.skipIf(!hasCorpus)('exit codes and output of domain commands (corpus)', () => {
  it('tasks import exits 1 when a task failed, and still imports the others', async () => {
    const root = tempDir('claw-root-');
    for (const id of ['T013zh_meeting_notes', 'T014_meeting_notes'])
      fs.cpSync(path.join(CLAW_ROOT, 'tasks', id), path.join(root, 'tasks', id), { recursive: true });
    fs.writeFileSync(path.join(root, 'tasks/T014_meeting_notes/task.yaml'), 'task_id: [unclosed\n');
    const ws = newFile();
    const r = await runCliCaptured(['--workspace', ws, 'tasks', 'import', root]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/1 imported, 0 updated, 0 unchanged, 1 with errors/);
    const again = await runCliCaptured([
      '--workspace',
      ws,
      'tasks',
      'import',
      path.join(root, 'tasks/T013zh_meeting_notes'),
    ]);
    expect(again.code).toBe(0);
  });

  it('env replay prints JSON lines (calls, then the audit) with --json too', async () => {
    const ws = newFile();
    await runCliCaptured(['--workspace', ws, 'tasks', 'import', path.join(CLAW_ROOT, 'tasks/T013zh_meeting_notes')]);
    const calls = path.join(tempDir('calls-'), 'calls.jsonl');
    fs.writeFileSync(calls, '{"tool": "notes_list", "args": {}}\n{"tool": "nope", "args": {}}\n');
    for (const json of [[], ['--json']]) {
      const r = await runCliCaptured([
        ...json,
        '--workspace',
        ws,
        'env',
        'replay',
        '--task',
        'T013zh_meeting_notes',
        '--calls',
        calls,
      ]);
      expect(r.code).toBe(0);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatchObject({ tool: 'notes_list', status: 200, is_error: false });
      expect(lines[1]).toMatchObject({ tool: 'nope', is_error: true });
      expect(Object.keys(lines[2])).toEqual(['audit']);
    }
  });
});
