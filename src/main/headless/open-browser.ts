import { spawn } from 'node:child_process';

/**
 * The program that opens `url`: $COWORKENV_BROWSER when set (a program path or name, run without a
 * shell), else the platform's opener. Its command line is readable by every local user (`ps`), so
 * callers pass a one-time sign-in link (HttpServer.openUrl), never a URL holding the token.
 */
export function browserCommand(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): { cmd: string; args: string[] } {
  const chosen = env.COWORKENV_BROWSER?.trim();
  if (chosen) return { cmd: chosen, args: [url] };
  if (platform === 'darwin') return { cmd: 'open', args: [url] };
  if (platform === 'win32') return { cmd: 'cmd', args: ['/c', 'start', '', url] };
  return { cmd: 'xdg-open', args: [url] };
}

/** Best effort: a headless box has no browser, and that is fine — the URL is printed anyway. */
export function openInBrowser(url: string, warn: (s: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  const { cmd, args } = browserCommand(url, env);
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => warn(`coworkenv: could not open a browser (${cmd}); open the URL above by hand\n`));
    child.unref();
  } catch {
    warn(`coworkenv: could not open a browser; open the URL above by hand\n`);
  }
}
