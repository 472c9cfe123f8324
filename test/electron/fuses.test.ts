import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import { FUSE_REASONS, fuseConfig, fuseMismatches, inspectPackagedApp } from '../../src/main/electron/fuses';
import { REPO_ROOT, tempDir } from '../helpers/test-core';

const ALL = Object.values(FuseV1Options).filter((v): v is FuseV1Options => typeof v === 'number');
const named = (c: ReturnType<typeof fuseConfig>) => Object.fromEntries(ALL.map((f) => [FuseV1Options[f], c[f]]));

describe('fuseConfig', () => {
  it('packaged as app.asar with its hash (macOS arm64): everything unneeded off, asar locked and validated', () => {
    const c = fuseConfig({ platform: 'darwin', arch: 'arm64', asar: true, asarIntegrity: true });
    expect(c.version).toBe(FuseVersion.V1);
    expect(c.resetAdHocDarwinSignature).toBe(true);
    expect(named(c)).toEqual({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      LoadBrowserProcessSpecificV8Snapshot: false,
      GrantFileProtocolExtraPrivileges: false,
    });
  });

  it('no app.asar: the asar fuses stay off, or the app would not start', () => {
    const c = named(fuseConfig({ platform: 'linux', arch: 'x64', asar: false, asarIntegrity: false }));
    expect(c.OnlyLoadAppFromAsar).toBe(false);
    expect(c.EnableEmbeddedAsarIntegrityValidation).toBe(false);
    expect(c.RunAsNode).toBe(false);
  });

  it('integrity validation only where Electron supports it and the hash is embedded (else the app is killed)', () => {
    const integrity = (platform: NodeJS.Platform, asarIntegrity: boolean) =>
      named(fuseConfig({ platform, arch: 'x64', asar: true, asarIntegrity })).EnableEmbeddedAsarIntegrityValidation;
    expect(integrity('win32', true)).toBe(true);
    expect(integrity('win32', false)).toBe(false);
    expect(integrity('darwin', false)).toBe(false);
    expect(integrity('linux', true)).toBe(false);
    expect(
      fuseConfig({ platform: 'darwin', arch: 'x64', asar: true, asarIntegrity: true }).resetAdHocDarwinSignature,
    ).toBe(false);
  });

  it('every fuse @electron/fuses knows is decided and justified (a new one fails here until someone decides)', () => {
    const c = fuseConfig({ platform: 'linux', arch: 'x64', asar: true, asarIntegrity: false });
    for (const f of ALL) {
      expect(typeof c[f], FuseV1Options[f]).toBe('boolean');
      expect(FUSE_REASONS[f]?.length ?? 0, FuseV1Options[f]).toBeGreaterThan(20);
      expect(FUSE_REASONS[f], FuseV1Options[f]).toMatch(/^(on|off)\b/);
    }
  });
});

describe('inspectPackagedApp', () => {
  it('macOS bundle: app.asar in Contents/Resources, the hash in Info.plist', () => {
    const files: Record<string, string> = {
      '/out/CoworkEnv Studio.app/Contents/Resources/app.asar': '',
      '/out/CoworkEnv Studio.app/Contents/Info.plist': '<dict><key>ElectronAsarIntegrity</key><dict/></dict>',
    };
    const o = { platform: 'darwin' as const, arch: 'arm64', asarIntegrityFlag: false };
    const app = inspectPackagedApp(
      '/out/CoworkEnv Studio.app',
      o,
      (p) => p in files,
      (p) => files[p]!,
    );
    expect(app).toEqual({ platform: 'darwin', arch: 'arm64', asar: true, asarIntegrity: true });
    files['/out/CoworkEnv Studio.app/Contents/Info.plist'] = '<dict/>';
    expect(
      inspectPackagedApp(
        '/out/CoworkEnv Studio.app',
        o,
        (p) => p in files,
        (p) => files[p]!,
      ).asarIntegrity,
    ).toBe(false);
  });

  it('Windows/Linux: resources/ beside the executable; Windows takes the packager’s word for the hash', () => {
    const has = (p: string) => p === path.join('/out/win-unpacked/resources/app.asar');
    const win = { platform: 'win32' as const, arch: 'x64', asarIntegrityFlag: true };
    expect(inspectPackagedApp('/out/win-unpacked/CoworkEnv Studio.exe', win, has)).toMatchObject({
      asar: true,
      asarIntegrity: true,
    });
    const linux = { platform: 'linux' as const, arch: 'x64', asarIntegrityFlag: true };
    expect(inspectPackagedApp('/out/linux-unpacked/coworkenv', linux, () => false)).toMatchObject({
      asar: false,
      asarIntegrity: false,
    });
  });
});

/** A file holding an Electron fuse wire (sentinel, version 1, 9 fuses: one newer than @electron/fuses). */
function fakeElectronBinary(dir: string, wire: string): string {
  const file = path.join(dir, 'coworkenv-studio');
  const sentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.alloc(64, 7), Buffer.from(sentinel), Buffer.from([1, wire.length]), Buffer.from(wire)]),
  );
  return file;
}
const wireOf = (file: string) => fs.readFileSync(file).subarray(-9).toString('latin1');

describe('scripts/flip-fuses.mjs on a binary', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/flip-fuses.mjs'), ...args],
        { cwd: REPO_ROOT },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it('writes the configured fuses, leaves the unknown ninth alone, reads them back', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'resources'));
    fs.writeFileSync(path.join(dir, 'resources', 'app.asar'), '');
    const bin = fakeElectronBinary(dir, '101100001');
    const r = await run([bin, '--platform', 'linux', '--arch', 'x64']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // RunAsNode off, cookies on, NODE_OPTIONS off, inspect off, integrity off (Linux), only-asar on, snapshot off,
    // file privileges off; #8 untouched.
    expect(wireOf(bin)).toBe('010001001');
    expect(r.stdout).toMatch(/fuse #8: unknown to @electron\/fuses, left at on/);
    expect(r.stdout).toMatch(/done \(asar: true, asar integrity: false\)/);
    expect(
      fuseMismatches(fuseConfig({ platform: 'linux', arch: 'x64', asar: true, asarIntegrity: false }), {}),
    ).toHaveLength(8);
  });

  it('a file without a fuse wire fails with a message', async () => {
    const file = path.join(tempDir(), 'not-electron');
    fs.writeFileSync(file, 'hello');
    const r = await run([file, '--platform', 'linux']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/sentinel/);
  });
});
