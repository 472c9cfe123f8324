import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspaceFile, sha256 } from '../helpers/files';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

/**
 * `coworkenv export … --overwrite` through the whole stack (CLI → dispatch → handler → job). The
 * workspace sits two levels under a temp folder, so even the unguarded code (which this test must
 * fail on) deletes nothing outside that folder.
 */
describe('coworkenv export --overwrite replaces only a previous export', () => {
  const root = tempDir('overwrite-cli-');
  const lab = path.join(root, 'lab');
  const ws = path.join(lab, 'ws.coworkenv.db');
  const cli = (...argv: string[]) => runCliCaptured(['--workspace', ws, ...argv]);
  const sft = (out: string, ...more: string[]) =>
    cli(...['export', 'sft', '--dialect', 'trl', '--out', out, '--all-uncurated', ...more]);

  beforeAll(async () => {
    fs.mkdirSync(lab);
    fs.copyFileSync(await makeWorkspaceFile(), ws);
    const chats = path.join(root, 'chats.jsonl');
    const chat = (i: number) => ({
      messages: [
        { role: 'user', content: `What is ${i} + 1?` },
        { role: 'assistant', content: `It is ${i + 1}.` },
      ],
    });
    fs.writeFileSync(chats, `${[1, 2, 3].map((i) => JSON.stringify(chat(i))).join('\n')}\n`);
    const r = await cli('trajectories', 'import', chats);
    expect(r.code, r.stderr).toBe(0);
    fs.rmSync(chats);
  });

  it("refuses the workspace's folder and its parent (exit 3); the workspace stays byte-identical", async () => {
    const before = sha256(ws);
    for (const out of [lab, root]) {
      const r = await sft(out, '--overwrite');
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`refusing to overwrite ${out}: it holds the open workspace ${ws}`);
      expect(sha256(ws)).toBe(before);
    }
    const json = await cli('--json', 'export', 'rl', '--out', lab, '--overwrite');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(fs.readdirSync(root).sort()).toEqual(['lab']);
  });

  it("replaces a previous export, never a folder with the user's files (exit 3, the file named)", async () => {
    const out = path.join(root, 'out');
    expect((await sft(out)).code).toBe(0);
    const again = await sft(out, '--overwrite');
    expect(again.code, again.stderr).toBe(0);
    fs.writeFileSync(path.join(out, 'notes.txt'), 'mine');
    const r = await sft(out, '--overwrite');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`refusing to overwrite ${out}: it holds files this export did not write: notes.txt`);
    expect(fs.readFileSync(path.join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });
});
