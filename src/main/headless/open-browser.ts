import { spawn } from 'node:child_process';

/** Best effort: a headless box has no browser, and that is fine — the URL is printed anyway. */
export function openInBrowser(url: string, warn: (s: string) => void): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => warn(`coworkenv: could not open a browser (${cmd}); open the URL above by hand\n`));
    child.unref();
  } catch {
    warn(`coworkenv: could not open a browser; open the URL above by hand\n`);
  }
}
