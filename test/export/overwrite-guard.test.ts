import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import { writeFolderAtomically } from '../../src/main/core/export/package-files';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { exportSft, type SftRecord } from '../../src/main/core/export/sft';
import { sha256 } from '../helpers/files';
import { CLOCK, handTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';
import { agentRun, rec, trajectory } from './build';

const records = (n: number, tag = 'r'): SftRecord[] =>
  Array.from({ length: n }, (_, i) => rec(trajectory(`${tag}${i}`, agentRun(`${tag}${i}`, 5, 5))));
const listing = (dir: string) => fs.readdirSync(dir).sort();

/**
 * A stand-in for the open workspace: the guard compares paths and inodes, so bytes are enough. It
 * lives two levels under a temp folder, so even the unguarded code (which these tests must fail on)
 * only ever deletes inside that temp folder.
 */
function workspace() {
  const root = tempDir('overwrite-guard-');
  const dir = path.join(root, 'lab');
  fs.mkdirSync(dir);
  const file = path.join(dir, 'ws.coworkenv.db');
  fs.writeFileSync(file, 'SQLite format 3\0 the workspace');
  fs.writeFileSync(`${file}-wal`, 'wal frames');
  return { root, dir, file, hash: sha256(file) };
}

const sft = (outDir: string, workspacePath?: string, n = 2) =>
  exportSft({ records: records(n), dialect: 'trl', outDir, options: { overwrite: true }, workspacePath });

describe('overwrite replaces only a previous export of this app', () => {
  it("refuses the workspace's own folder and its parent; the workspace survives byte-identical", async () => {
    const ws = workspace();
    for (const target of [ws.dir, ws.root]) {
      expect(() => sft(target, ws.file)).toThrow(`refusing to overwrite ${target}: it holds the open workspace`);
      await expect(
        exportRlPackage({ tasks: [handTask()], outDir: target, overwrite: true, clock: CLOCK, workspacePath: ws.file }),
      ).rejects.toThrow(/holds the open workspace/);
      expect(sha256(ws.file)).toBe(ws.hash);
      expect(listing(ws.dir)).toEqual(['ws.coworkenv.db', 'ws.coworkenv.db-wal']);
      expect(listing(ws.root)).toEqual(['lab']);
    }
  });

  it('refuses a folder holding files the export did not write, and names them; nothing is deleted', async () => {
    const out = path.join(tempDir(), 'exp');
    sft(out);
    fs.writeFileSync(path.join(out, 'notes.txt'), 'my notes');
    fs.mkdirSync(path.join(out, 'data'));
    fs.writeFileSync(path.join(out, 'data', 'x.csv'), '1,2');
    fs.appendFileSync(path.join(out, 'train.jsonl'), '{"edited": true}\n');
    const before = listing(out);
    expect(() => sft(out)).toThrow(
      `refusing to overwrite ${out}: it holds files this export did not write: data/, notes.txt, train.jsonl (changed)`,
    );
    await expect(exportClawEval({ tasks: [handTask()], outDir: out, overwrite: true })).rejects.toThrow(/notes\.txt/);
    expect(listing(out)).toEqual(before);
    expect(fs.readFileSync(path.join(out, 'notes.txt'), 'utf8')).toBe('my notes');
    // A folder of the user's own (no manifest of ours) is not an export at all.
    const mine = path.join(tempDir(), 'mine');
    fs.mkdirSync(mine);
    for (const f of ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt', 'g.txt'])
      fs.writeFileSync(path.join(mine, f), f);
    fs.writeFileSync(path.join(mine, 'manifest.json'), '{"format": "someone-else"}');
    expect(() => sft(mine)).toThrow(
      `refusing to overwrite ${mine}: it is not an export of CoworkEnv Studio (its manifest.json does not name one); ` +
        'it holds a.txt, b.txt, c.txt, d.txt, e.txt (and 3 more)',
    );
    expect(listing(mine)).toHaveLength(8);
  });

  it('replaces a previous export of the same kind and of another kind; a user file added to one stops it', async () => {
    const parent = tempDir();
    const out = path.join(parent, 'exp');
    sft(out, undefined, 3);
    sft(out, undefined, 1); // SFT over SFT
    expect(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).report.exported).toBe(1);
    await exportRlPackage({ tasks: [handTask()], outDir: out, overwrite: true, clock: CLOCK }); // RL over SFT
    await exportClawEval({ tasks: [handTask()], outDir: out, overwrite: true }); // Claw-Eval over RL
    expect(listing(out)).toContain('tasks');
    sft(out); // SFT over Claw-Eval
    expect(listing(out)).toEqual(['lint.json', 'manifest.json', 'rejections.jsonl', 'train.jsonl']);
    expect(listing(parent)).toEqual(['exp']);
    fs.writeFileSync(path.join(out, 'README.txt'), 'read me');
    expect(() => sft(out)).toThrow(/did not write: README\.txt/);
    // An empty folder is reused.
    const empty = path.join(parent, 'empty');
    fs.mkdirSync(empty);
    sft(empty);
    expect(listing(empty)).toContain('manifest.json');
  });

  it('refuses links into the workspace folder, inside an export or as the target itself', async () => {
    const ws = workspace();
    const out = path.join(ws.root, 'exp');
    sft(out, ws.file);
    fs.symlinkSync(ws.dir, path.join(out, 'shortcut'));
    expect(() => sft(out, ws.file)).toThrow(
      `refusing to overwrite ${out}: it holds the open workspace ${ws.file} (through shortcut)`,
    );
    fs.rmSync(path.join(out, 'shortcut'));
    // A link named like a file the export writes is still not one it wrote.
    fs.rmSync(path.join(out, 'lint.json'));
    fs.symlinkSync(ws.file, path.join(out, 'lint.json'));
    expect(() => sft(out, ws.file)).toThrow(/holds the open workspace .* \(through lint\.json\)/);
    const link = path.join(ws.root, 'link-to-lab');
    fs.symlinkSync(ws.dir, link);
    await expect(
      writeFolderAtomically(link, true, (w) => void w.write('a.txt', 'x'), { workspacePath: ws.file }),
    ).rejects.toThrow(`refusing to overwrite ${link}: it is a symbolic link`);
    expect(sha256(ws.file)).toBe(ws.hash);
    expect(listing(ws.dir)).toEqual(['ws.coworkenv.db', 'ws.coworkenv.db-wal']);
    expect(fs.readlinkSync(link)).toBe(ws.dir);
  });
});
