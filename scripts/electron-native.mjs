// postinstall: builds better-sqlite3 for Electron's ABI into build/electron-native/, next to the
// Node-ABI build that stays in node_modules for tests, the CLI and browser mode
// (reference/stack.md). It acts only when the Electron runtime is installed and never fails the install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const done = (msg) => (console.log(`electron-native: ${msg}`), process.exit(0));

const electronDir = path.join(root, 'node_modules', 'electron');
const pathFile = path.join(electronDir, 'path.txt');
if (
  !fs.existsSync(pathFile) ||
  !fs.existsSync(path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim()))
) {
  done('Electron runtime not installed; skipped (browser mode and the CLI use the Node build).');
}
const version = JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js', {
  paths: [path.dirname(process.execPath), '/usr/lib/node_modules/npm', sqliteDir],
});
const work = fs.mkdtempSync(path.join(root, 'build-electron-native-'));
fs.cpSync(sqliteDir, work, { recursive: true });
// Hazard: ~/.npmrc may set nodedir, which makes an "Electron" rebuild silently target Node's ABI.
const env = { ...process.env };
for (const k of Object.keys(env)) if (k.toLowerCase().startsWith('npm_config_')) delete env[k];
const r = spawnSync(
  process.execPath,
  [nodeGyp, 'rebuild', `--target=${version}`, '--dist-url=https://electronjs.org/headers', '--runtime=electron'],
  { cwd: work, env, stdio: 'inherit' },
);
if (r.status !== 0) {
  fs.rmSync(work, { recursive: true, force: true });
  done('rebuild failed (offline?); the desktop app needs it — rerun `node scripts/electron-native.mjs` when online.');
}
const out = path.join(root, 'build', 'electron-native');
fs.mkdirSync(out, { recursive: true });
fs.copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), path.join(out, 'better_sqlite3.node'));
fs.rmSync(work, { recursive: true, force: true });
done(`built for Electron ${version} → build/electron-native/better_sqlite3.node`);
