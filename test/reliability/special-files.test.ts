import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { readRegularFile } from '../../src/main/core/lib/read-file';
import type { ImportResult } from '../../src/shared/contract/entities/trajectory-row';
import { ok } from '../helpers/call';
import { makeWorkspaceFile } from '../helpers/files';
import { CLAW_ROOT } from '../helpers/goldens';
import { openaiRow, writeIn } from '../helpers/hostile-records';
import { createTestCore, tempDir } from '../helpers/test-core';
import { importFiles } from '../helpers/trajectory-import';
import { runCliCaptured } from '../helpers/transports';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const posix = process.platform !== 'win32';
const TASK = 'T013zh_meeting_notes';
const FIXTURE = `tasks/${TASK}/fixtures/notes/meetings.json`;

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** A scratch Claw-Eval root with two corpus tasks; the test damages T013zh. */
function scratchRoot(): string {
  const root = tempDir('claw-root-');
  for (const id of ['T009zh_contact_lookup', TASK])
    fs.cpSync(path.join(CLAW_ROOT, 'tasks', id), path.join(root, 'tasks', id), { recursive: true });
  return root;
}

/** Imports the root: the damaged task is an error naming `message`, the other one imports. */
async function expectRefused(root: string, message: RegExp) {
  const { core } = createTestCore({ seedDemo: false });
  cores.push(core);
  const r = await ok(core, 'tasks.import', { paths: [root] });
  const bad = r.outcomes.find((o) => o.status === 'error');
  expect(bad?.errors[0]).toMatch(message);
  expect(r.outcomes.find((o) => o.taskId === 'T009zh_contact_lookup')?.status).toBe('imported');
  expect((await ok(core, 'tasks.list', {})).rows.map((x) => x.task_id)).toEqual(['T009zh_contact_lookup']);
}

describe.skipIf(!hasCorpus || !posix)('special files given as task files are refused, never read', () => {
  it('a fixture that is a FIFO: refused at once (it used to block the import forever, holding the lock)', async () => {
    const root = scratchRoot();
    const fifo = path.join(root, FIXTURE);
    fs.rmSync(fifo);
    execFileSync('mkfifo', [fifo]);
    // Should a regression block on the FIFO, this writer ends the block after a while: the test then fails, not hangs.
    const writer = spawn('sh', ['-c', `sleep 10; echo '[]' > '${fifo}'`], { stdio: 'ignore', detached: true });
    try {
      await expectRefused(root, /meetings\.json: a FIFO, not a regular file/);
    } finally {
      writer.kill();
    }
  });

  it('a fixture that is a symlink to /dev/zero: refused (it used to grow memory without end)', async () => {
    const root = scratchRoot();
    fs.rmSync(path.join(root, FIXTURE));
    fs.symlinkSync('/dev/zero', path.join(root, FIXTURE));
    await expectRefused(root, /outside .*only files inside it are read|a device, not a regular file/);
  });

  it('a fixture that is a symlink to a file outside the root: refused, its content is not imported', async () => {
    const root = scratchRoot();
    const secret = path.join(tempDir('outside-'), 'secret.json');
    fs.writeFileSync(secret, '[{"note_id": "leaked", "title": "t", "date": "2026-01-01", "content": "private"}]');
    fs.rmSync(path.join(root, FIXTURE));
    fs.symlinkSync(secret, path.join(root, FIXTURE));
    await expectRefused(root, /meetings\.json is a symlink to a file outside .*; only files inside it are read/);
  });

  it('a task folder that is a symlink to a folder outside the root: refused', async () => {
    const root = scratchRoot();
    const elsewhere = path.join(tempDir('outside-'), TASK);
    fs.renameSync(path.join(root, 'tasks', TASK), elsewhere);
    fs.symlinkSync(elsewhere, path.join(root, 'tasks', TASK));
    await expectRefused(root, /task\.yaml is a symlink to a file outside/);
  });

  it('a symlink that stays inside the root is followed', async () => {
    const root = scratchRoot();
    const real = path.join(root, 'shared-meetings.json');
    fs.renameSync(path.join(root, FIXTURE), real);
    fs.symlinkSync(real, path.join(root, FIXTURE));
    const { core } = createTestCore({ seedDemo: false });
    cores.push(core);
    expect((await ok(core, 'tasks.import', { paths: [root] })).counts).toMatchObject({ imported: 2, errors: 0 });
  });

  it('a task.yaml over the size limit is refused by its size, before reading', async () => {
    const root = scratchRoot();
    fs.truncateSync(path.join(root, 'tasks', TASK, 'task.yaml'), 9 * 1024 * 1024);
    await expectRefused(root, /task\.yaml: 9437184 bytes is over the 8388608-byte limit/);
  });

  it('the limit counts the bytes read, not the size stat reports (/proc files say 0)', () => {
    expect(fs.statSync('/proc/self/status').size).toBe(0);
    expect(() => readRegularFile('/proc/self/status', 64)).toThrow(/over the 64-byte limit/);
    expect(readRegularFile('/proc/self/status', 1 << 20).length).toBeGreaterThan(64);
  });
});

describe.skipIf(!hasCorpus)('task ids are names, not paths', () => {
  for (const id of ['../evil', 'a/b', 'a\\\\b', '..']) {
    it(`task_id ${JSON.stringify(id)} is refused`, async () => {
      const root = scratchRoot();
      const f = path.join(root, 'tasks', TASK, 'task.yaml');
      fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/^task_id: .*$/m, `task_id: "${id}"`));
      await expectRefused(root, /field task_id: a task id is a name, not a path/);
    });
  }
});

describe.skipIf(!posix)(
  'special entries of a trajectory import: each refused by name and reason, the others import',
  () => {
    const row = (task: string) => `${JSON.stringify(openaiRow(task))}\n`;
    const isRoot = process.getuid?.() === 0;

    async function importOf(paths: string[]) {
      const { core } = createTestCore({ seedDemo: false });
      cores.push(core);
      return importFiles(core, { paths });
    }
    const errorOf = (r: ImportResult, name: string) => r.files.find((f) => path.basename(f.path) === name)?.error;

    it('symlink loops, a dangling symlink and a FIFO in the folder (a loop answered INTERNAL ELOOP)', async () => {
      const dir = tempDir('traj-special-');
      writeIn(dir, 'good.jsonl', row('a'));
      fs.symlinkSync('self.jsonl', path.join(dir, 'self.jsonl'));
      fs.symlinkSync('ping.json', path.join(dir, 'pong.json'));
      fs.symlinkSync('pong.json', path.join(dir, 'ping.json'));
      fs.symlinkSync('nowhere.jsonl', path.join(dir, 'dangling.jsonl'));
      execFileSync('mkfifo', [path.join(dir, 'fifo.jsonl')]);
      const r = await importOf([dir]);
      expect(r.files.map((f) => [path.basename(f.path), f.stored])).toEqual([
        ['dangling.jsonl', 0],
        ['fifo.jsonl', 0],
        ['good.jsonl', 1],
        ['ping.json', 0],
        ['pong.json', 0],
        ['self.jsonl', 0],
      ]);
      for (const name of ['self.jsonl', 'ping.json', 'pong.json'])
        expect(errorOf(r, name)).toBe('a symlink loop: following its links never reaches a file (ELOOP)');
      expect(errorOf(r, 'dangling.jsonl')).toBe('a symlink to nowhere.jsonl, which does not exist');
      expect(errorOf(r, 'fifo.jsonl')).toBe('a FIFO, not a regular file; only files are read');
      // Each file-level refusal is an issue naming the file, as the CLI prints it.
      expect(r.issues.filter((i) => i.line === null).map((i) => path.basename(i.file!))).toEqual([
        'dangling.jsonl',
        'fifo.jsonl',
        'ping.json',
        'pong.json',
        'self.jsonl',
      ]);
    });

    it('a loop named directly, on the CLI too: refused by name, exit 1', async () => {
      const dir = tempDir('traj-loop-');
      const loop = path.join(dir, 'loop.jsonl');
      fs.symlinkSync('loop.jsonl', loop);
      const good = writeIn(dir, 'good.jsonl', row('a'));
      expect(errorOf(await importOf([loop, good]), 'loop.jsonl')).toMatch(/^a symlink loop/);
      const ws = await makeWorkspaceFile();
      const cli = await runCliCaptured(['--workspace', ws, 'trajectories', 'import', loop, good]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(`${loop}: a symlink loop: following its links never reaches a file (ELOOP)`);
      expect(cli.stdout).toMatch(/1 stored .* 1 refused/);
    });

    it.skipIf(isRoot)('a file and a subfolder without read permission (root reads them anyway)', async () => {
      const dir = tempDir('traj-perm-');
      fs.chmodSync(writeIn(dir, 'locked.jsonl', row('x')), 0o000);
      fs.mkdirSync(path.join(dir, 'closed'));
      writeIn(path.join(dir, 'closed'), 'inner.jsonl', row('y'));
      fs.chmodSync(path.join(dir, 'closed'), 0o000);
      writeIn(dir, 'good.jsonl', row('a'));
      try {
        const r = await importOf([dir]);
        expect(errorOf(r, 'locked.jsonl')).toBe('permission denied (EACCES)');
        expect(errorOf(r, 'closed')).toBe('a folder that cannot be listed: permission denied (EACCES)');
        expect(r.stored).toBe(1);
      } finally {
        fs.chmodSync(path.join(dir, 'closed'), 0o755);
      }
    });
  },
);
