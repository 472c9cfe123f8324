import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FolderWriter,
  jsonText,
  TOOL_NAME,
  writeFolderAtomically,
} from '../../src/main/core/export/package-files';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { PyFloat } from '../../src/main/core/py/pyjson';
import { CLOCK, handTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

/** Two files and a manifest naming them, as every export writes: only such a folder is ever overwritten. */
const fill = (text: string) => (w: FolderWriter) => {
  w.write('a.txt', text);
  w.write('sub/b.txt', text);
  const manifest = { format: 'coworkenv-claw-eval-export', tool: { name: TOOL_NAME }, files: [...w.files] };
  w.write('manifest.json', JSON.stringify(manifest));
};
const listing = (dir: string) => fs.readdirSync(dir).sort();

afterEach(() => vi.restoreAllMocks());

describe('export folders are written all at once', () => {
  it('a new folder (parents made); an empty one; a previous export only with overwrite, replaced whole', async () => {
    const parent = tempDir();
    const out = path.join(parent, 'deep', 'out');
    await writeFolderAtomically(out, false, fill('one'));
    expect(listing(out)).toEqual(['a.txt', 'manifest.json', 'sub']);
    await expect(writeFolderAtomically(out, false, fill('two'))).rejects.toThrow(
      `${out} already exists and is not empty; ask to overwrite it to replace it`,
    );
    fs.writeFileSync(path.join(out, 'stale.txt'), 'old');
    await expect(writeFolderAtomically(out, true, fill('two'))).rejects.toThrow(/did not write: stale\.txt/);
    fs.rmSync(path.join(out, 'stale.txt'));
    await writeFolderAtomically(out, true, (w) => void w.write('a.txt', 'two'));
    expect(listing(out)).toEqual(['a.txt']);
    expect(fs.readFileSync(path.join(out, 'a.txt'), 'utf8')).toBe('two');
    const empty = path.join(parent, 'empty');
    fs.mkdirSync(empty);
    await writeFolderAtomically(empty, false, fill('x'));
    expect(listing(path.join(parent, 'deep'))).toEqual(['out']); // no temporary or old folder left
    expect(listing(parent)).toEqual(['deep', 'empty']);
  });

  it('clear errors for places it cannot write, and nothing left behind', async () => {
    const parent = tempDir();
    const file = path.join(parent, 'file.txt');
    fs.writeFileSync(file, 'x');
    await expect(writeFolderAtomically(file, true, fill('x'))).rejects.toThrow(`${file} exists and is not a folder`);
    await expect(writeFolderAtomically(path.join(file, 'out'), false, fill('x'))).rejects.toThrow(
      `cannot write the export next to ${path.join(file, 'out')}: a part of the path is a file, not a folder`,
    );
    await expect(
      writeFolderAtomically(path.join(parent, 'out'), false, (w) => void w.write('../escape.txt', 'x')),
    ).rejects.toThrow('refusing to write ../escape.txt: not a plain relative path inside the export folder');
    expect(listing(parent)).toEqual(['file.txt']);
  });

  it('a failure half-way (disk full) removes the partial folder and keeps the previous export', async () => {
    const out = path.join(tempDir(), 'pkg');
    await exportRlPackage({ tasks: [handTask()], outDir: out, clock: CLOCK });
    const before = fs.readFileSync(path.join(out, 'manifest.json'), 'utf8');
    const real = fs.writeFileSync;
    let n = 0;
    vi.spyOn(fs, 'writeFileSync').mockImplementation((...args: Parameters<typeof real>) => {
      if (++n === 4) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return real(...args);
    });
    await expect(exportRlPackage({ tasks: [handTask()], outDir: out, overwrite: true, clock: CLOCK })).rejects.toThrow(
      'writing the export failed: no space left on the device',
    );
    vi.restoreAllMocks();
    expect(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).toBe(before);
    expect(listing(path.dirname(out))).toEqual(['pkg']);
  });

  it('JSON lines: raw UTF-8, floats keep their point, undefined members dropped, non-finite numbers refused', () => {
    expect(jsonText({ a: 'é', b: new PyFloat(2), c: undefined, d: [1, 1.5] })).toBe('{"a":"é","b":2.0,"d":[1,1.5]}');
    expect(() => jsonText({ r: Number.NaN })).toThrow('a value to export is not a finite number (NaN)');
  });
});
