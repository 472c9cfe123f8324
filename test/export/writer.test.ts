import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffManifests, exportSft, readManifest, type SftRecord } from '../../src/main/core/export/sft';
import { tempDir } from '../helpers/temp';
import { agentRun, rec, trajectory } from './build';

const records = (n: number, tag = 'r'): SftRecord[] =>
  Array.from({ length: n }, (_, i) => rec(trajectory(`${tag}${i}`, agentRun(`${tag}${i}`, 5, 5))));

/** What is left in a folder: names only, hidden ones included. */
const listing = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/** Root ignores permission bits; try the immutable flag instead. Answers how to undo it, or null when neither works. */
function makeUnwritable(dir: string): (() => void) | null {
  fs.chmodSync(dir, 0o555);
  const probe = path.join(dir, '.probe');
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch {
    return () => fs.chmodSync(dir, 0o755);
  }
  fs.chmodSync(dir, 0o755);
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    return () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
}

describe('the export folder', () => {
  it('refuses an existing folder unless overwrite is asked; overwrite swaps a previous export whole', () => {
    const parent = tempDir();
    const out = path.join(parent, 'exp');
    exportSft({ records: records(3), dialect: 'trl', outDir: out });
    expect(() => exportSft({ records: records(3), dialect: 'trl', outDir: out })).toThrow(/already exists/);
    // A file the export did not write stops the overwrite (test/export/overwrite-guard.test.ts has the rest).
    fs.writeFileSync(path.join(out, 'stale.txt'), 'from before');
    expect(() => exportSft({ records: records(1), dialect: 'trl', outDir: out, options: { overwrite: true } })).toThrow(
      /did not write: stale\.txt/,
    );
    fs.rmSync(path.join(out, 'stale.txt'));
    const res = exportSft({ records: records(2, 's'), dialect: 'openai', outDir: out, options: { overwrite: true } });
    expect(res.report.exported).toBe(2);
    expect(listing(out)).toEqual(['lint.json', 'manifest.json', 'rejections.jsonl', 'train.jsonl']);
    expect(listing(parent)).toEqual(['exp']);
    fs.writeFileSync(path.join(parent, 'a-file'), '');
    expect(() =>
      exportSft({
        records: records(1),
        dialect: 'trl',
        outDir: path.join(parent, 'a-file'),
        options: { overwrite: true },
      }),
    ).toThrow(/not a folder/);
  });

  it('an unwritable folder gives a clear error and leaves nothing behind', (ctx) => {
    const parent = tempDir();
    const undo = makeUnwritable(parent);
    if (!undo) return ctx.skip('cannot make a folder unwritable here (root without chattr)');
    try {
      expect(() => exportSft({ records: records(3), dialect: 'trl', outDir: path.join(parent, 'exp') })).toThrow(
        /cannot write the export in .*: (permission denied|operation not permitted) \(E(ACCES|PERM)/,
      );
    } finally {
      undo();
    }
    expect(listing(parent)).toEqual([]);
  });

  it('a full disk mid-export removes the partial folder: nothing looks complete', (ctx) => {
    const mnt = tempDir();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt], { stdio: 'ignore' });
    } catch {
      return ctx.skip('cannot mount a small tmpfs here (needs root)');
    }
    try {
      const out = path.join(mnt, 'exp');
      expect(() => exportSft({ records: records(400), dialect: 'llamafactory', outDir: out })).toThrow(
        /cannot write the export to .*exp: no space left on device \(ENOSPC/,
      );
      expect(listing(mnt)).toEqual([]);
    } finally {
      execFileSync('umount', [mnt]);
    }
  });

  it('cancelling through onProgress leaves nothing, and a previous export being overwritten stays intact', () => {
    const parent = tempDir();
    const out = path.join(parent, 'exp');
    exportSft({ records: records(3), dialect: 'trl', outDir: out });
    const before = fs.readFileSync(path.join(out, 'manifest.json'), 'utf8');
    const cancel = () => {
      throw new Error('cancelled by the user');
    };
    expect(() =>
      exportSft({
        records: records(2500),
        dialect: 'verl',
        outDir: out,
        options: { overwrite: true },
        onProgress: (p) => p.phase === 'convert' && p.done >= 2000 && cancel(),
      }),
    ).toThrow('cancelled by the user');
    expect(listing(parent)).toEqual(['exp']);
    expect(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).toBe(before);
  });
});

describe('manifest diff', () => {
  it('names records added, removed and changed, and the options and rejection counts that differ', () => {
    const parent = tempDir();
    const base = records(6);
    exportSft({ records: base, dialect: 'trl', outDir: path.join(parent, 'a') });
    const next = [...base.slice(1, 5), rec(trajectory('r5', agentRun('r5-changed', 5, 5))), ...records(2, 'new')];
    next.push(rec(trajectory('low', agentRun('low', 5, 5)), { reward: 0.1 }));
    exportSft({
      records: next,
      dialect: 'trl',
      outDir: path.join(parent, 'b'),
      options: { converter: { maxToolCalls: 30 } },
    });
    const d = diffManifests(
      readManifest(path.join(parent, 'a')),
      readManifest(path.join(parent, 'b', 'manifest.json')),
    );
    expect(d.added).toEqual(['new0', 'new1']);
    expect(d.removed).toEqual(['r0']);
    expect(d.changed).toEqual(['r5']);
    expect(d.unchanged).toBe(4);
    expect(d.counts).toEqual({ a: { exported: 6, rejected: 0 }, b: { exported: 7, rejected: 1 } });
    expect(d.rejections).toEqual({ below_threshold: { a: 0, b: 1 } });
    expect(d.options).toEqual(['converter']);
  });

  it('refuses a file that is not a manifest, naming it', () => {
    const f = path.join(tempDir(), 'manifest.json');
    fs.writeFileSync(f, '{"format": "something else"}');
    expect(() => readManifest(f)).toThrow(`${f}: not an SFT export manifest: format`);
    fs.writeFileSync(f, '{"format": ');
    expect(() => readManifest(f)).toThrow(`${f}:1:`);
  });
});
