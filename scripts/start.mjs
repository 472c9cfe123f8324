// `npm start`: the desktop app when the Electron runtime is installed, browser mode otherwise.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function ensureBuilt() {
  const built = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.js', 'out/renderer/index.html'].every((f) =>
    fs.existsSync(path.join(root, f)),
  );
  if (built && !process.argv.includes('--rebuild')) return;
  console.log('Building CoworkEnv Studio (electron-vite build)…');
  const r = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** The electron package downloads its binary lazily; never trigger that download from here. */
function electronBinary() {
  const dir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return undefined;
  const exe = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(exe) ? exe : undefined;
}

ensureBuilt();
const electron = electronBinary();
if (electron) {
  const child = spawn(electron, [root], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(
    [
      'The Electron runtime is not installed, so the desktop window cannot open.',
      '  To install it (needs internet access): npx install-electron',
      'Starting browser mode instead — the same app, served on 127.0.0.1:',
      '',
    ].join('\n'),
  );
  const args = [
    path.join(root, 'bin', 'coworkenv.js'),
    'serve',
    ...(process.env.CI ? [] : ['--open']),
    ...process.argv.slice(2).filter((a) => a !== '--rebuild'),
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}
