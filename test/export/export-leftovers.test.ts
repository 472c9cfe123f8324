import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFolderAtomically } from '../../src/main/core/export/package-files';
import { exportSft } from '../../src/main/core/export/sft';
import { tempDir } from '../helpers/temp';
import { agentRun, rec, trajectory } from './build';

const listing = (dir: string) => fs.readdirSync(dir).sort();
const sft = (outDir: string, overwrite = false) =>
  exportSft({ records: [rec(trajectory('r0', agentRun('r0', 5, 5)))], dialect: 'trl', outDir, options: { overwrite } });

/** A pid that answered once and has exited: what a killed export leaves in its folder names. */
const DEAD = spawnSync(process.execPath, ['-e', '']).pid!;
/** A process that stays up until the test ends: another export still writing. */
const alive = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
afterAll(() => void alive.kill());

/** A leftover folder of a killed export, holding one file. */
function leftover(parent: string, name: string, file = 'train.jsonl') {
  fs.mkdirSync(path.join(parent, name));
  fs.writeFileSync(path.join(parent, name, file), 'half');
}

describe('leftovers of killed exports are cleaned by the next export into the same folder', () => {
  it('removes dead partial folders, keeps a live one and names that are not ours', () => {
    const parent = tempDir();
    leftover(parent, `.exp.partial-${DEAD}-0123abcd`);
    leftover(parent, `.other.partial-${DEAD}-89abcdef`);
    leftover(parent, `.busy.partial-${alive.pid}-89abcdef`);
    leftover(parent, `.pkg.tmp-0123456789ab`); // the RL / Claw-Eval writer's name before pids were in it
    leftover(parent, `.exp.partial-${DEAD}-xyz`); // not our pattern: left alone
    fs.writeFileSync(path.join(parent, `.file.partial-${DEAD}-0123abcd`), 'a file, not a folder');
    sft(path.join(parent, 'exp'));
    expect(listing(parent)).toEqual([
      `.busy.partial-${alive.pid}-89abcdef`,
      `.exp.partial-${DEAD}-xyz`,
      `.file.partial-${DEAD}-0123abcd`,
      'exp',
    ]);
  });

  it('restores a previous export moved aside when its new one never arrived', async () => {
    const parent = tempDir();
    // Exports are made elsewhere and moved in, so that only the last export below meets the leftovers.
    const scratch = tempDir();
    const made = (name: string) => {
      sft(path.join(scratch, name));
      return path.join(scratch, name);
    };
    const moveIn = (from: string, name: string) => fs.renameSync(from, path.join(parent, name));
    const gone = made('gone');
    const manifest = fs.readFileSync(path.join(gone, 'manifest.json'), 'utf8');
    // Killed between the two renames: the old export is aside, the new one still partial.
    moveIn(gone, `.gone.replaced-${DEAD}-0123abcd`);
    leftover(parent, `.gone.partial-${DEAD}-0123abcd`);
    // Killed after both renames: the old export is aside and the new one in place.
    moveIn(made('done'), 'done');
    moveIn(made('done-before'), `.done.replaced-${DEAD}-89abcdef`);
    // Aside but holding a user's file (the unguarded code moved anything aside): never deleted.
    moveIn(made('kept'), 'kept');
    fs.mkdirSync(path.join(parent, `.kept.old-0123456789ab`));
    fs.writeFileSync(path.join(parent, `.kept.old-0123456789ab`, 'thesis.tex'), 'mine');
    // Aside by an export still running: left to its owner (not restored, not deleted).
    moveIn(made('live'), `.live.replaced-${alive.pid}-0123abcd`);
    await writeFolderAtomically(path.join(parent, 'pkg'), false, (w) => void w.write('a.txt', 'x'));
    expect(listing(parent)).toEqual([
      `.kept.old-0123456789ab`,
      `.live.replaced-${alive.pid}-0123abcd`,
      'done',
      'gone',
      'kept',
      'pkg',
    ]);
    expect(fs.readFileSync(path.join(parent, 'gone', 'manifest.json'), 'utf8')).toBe(manifest);
  });
});
