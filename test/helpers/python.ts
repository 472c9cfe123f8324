import { execFile, execFileSync } from 'node:child_process';

/** python3 on this machine, or why not (tests that need it skip with that reason). */
export const PYTHON: { ok: true } | { ok: false; why: string } = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return { ok: true };
  } catch {
    return { ok: false, why: 'python3 is not installed' };
  }
})();

/**
 * Runs python3 without blocking the event loop (the server under test lives in this process);
 * resolves with stdout, rejects with stderr on a non-zero exit.
 */
export function python(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      args,
      { env: { ...process.env, ...env }, cwd, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`python3 ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}
