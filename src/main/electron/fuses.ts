import fs from 'node:fs';
import path from 'node:path';
import { type FuseConfig, FuseV1Options, FuseVersion } from '@electron/fuses';

/**
 * Electron fuses for the packaged app (flipped by scripts/flip-fuses.mjs after packaging, before
 * signing). Each choice and why; the app's own code never needs what is switched off.
 */
export const FUSE_REASONS: Record<FuseV1Options, string> = {
  [FuseV1Options.RunAsNode]:
    'off: ELECTRON_RUN_AS_NODE would turn the signed app into a general Node for anyone; jobs use worker_threads ' +
    'and the CLI runs under Node, so nothing forks the app binary',
  [FuseV1Options.EnableCookieEncryption]:
    'on: the app sets no cookies, but anything Chromium stores later is encrypted with the OS key store ' +
    '(one-way: turning it off again corrupts the cookie store)',
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]:
    'off: NODE_OPTIONS (--require, --import, --inspect) would inject code into the main process',
  [FuseV1Options.EnableNodeCliInspectArguments]:
    'off: --inspect/--inspect-brk and SIGUSR1 would open a debugger on the main process, which holds the workspace',
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]:
    'on when packaged as app.asar with its header hash embedded (macOS Info.plist / Windows resource; Linux has ' +
    'no support): a tampered app.asar refuses to start. Off otherwise: a missing hash would terminate the app',
  [FuseV1Options.OnlyLoadAppFromAsar]:
    'on when packaged as app.asar: a planted resources/app folder cannot replace the code (and the integrity ' +
    'check cannot be sidestepped); off for an unpacked folder, which would then not start',
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: 'off (the default): we ship no browser-process V8 snapshot',
  [FuseV1Options.GrantFileProtocolExtraPrivileges]:
    'off: the renderer is served from coworkenv://app (app-protocol.ts), so file:// pages need no powers beyond ' +
    'what a browser gives them',
};

/** What was packaged: the target platform/arch, whether the app is an app.asar, and whether its hash is embedded. */
export type PackagedApp = { platform: NodeJS.Platform; arch: string; asar: boolean; asarIntegrity: boolean };

/**
 * The fuse configuration for a packaged app (see FUSE_REASONS). Fuses newer than @electron/fuses keep Electron's
 * default.
 */
export function fuseConfig(app: PackagedApp): FuseConfig {
  const integrity = app.asar && app.asarIntegrity && (app.platform === 'darwin' || app.platform === 'win32');
  return {
    version: FuseVersion.V1,
    // Flipping bytes breaks the ad-hoc signature Apple Silicon requires; real signing comes after.
    resetAdHocDarwinSignature: app.platform === 'darwin' && app.arch === 'arm64',
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: integrity,
    [FuseV1Options.OnlyLoadAppFromAsar]: app.asar,
    [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

/**
 * Where a packaged app keeps app.asar, and whether its header hash is embedded, from the path given
 * to flipFuses: `Foo.app` (macOS) or the executable beside `resources/` (Windows, Linux). On Windows
 * the hash lives in a PE resource we do not parse: the packager's word (`--asar-integrity`) is taken.
 */
export function inspectPackagedApp(
  appPath: string,
  o: { platform: NodeJS.Platform; arch: string; asarIntegrityFlag: boolean },
  exists: (p: string) => boolean = fs.existsSync,
  read: (p: string) => string = (p) => fs.readFileSync(p, 'utf8'),
): PackagedApp {
  const bundle = appPath.endsWith('.app') ? appPath : undefined;
  const resources = bundle ? path.join(bundle, 'Contents', 'Resources') : path.join(path.dirname(appPath), 'resources');
  const asar = exists(path.join(resources, 'app.asar'));
  const plist = bundle ? path.join(bundle, 'Contents', 'Info.plist') : undefined;
  const asarIntegrity =
    o.platform === 'darwin'
      ? !!plist && exists(plist) && read(plist).includes('<key>ElectronAsarIntegrity</key>')
      : o.platform === 'win32' && o.asarIntegrityFlag;
  return { platform: o.platform, arch: o.arch, asar, asarIntegrity };
}

/** Fuses whose state in the binary differs from the configuration (empty when the flip took). */
export function fuseMismatches(config: FuseConfig, wire: Record<string, unknown>): string[] {
  const ENABLE = 49;
  const DISABLE = 48;
  return Object.values(FuseV1Options)
    .filter((v): v is FuseV1Options => typeof v === 'number')
    .filter((f) => typeof config[f] === 'boolean' && wire[f] !== (config[f] ? ENABLE : DISABLE))
    .map((f) => `${FuseV1Options[f]}: wanted ${config[f] ? 'on' : 'off'}`);
}
