import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * When a process started, as an opaque text that differs between two processes that had the same
 * pid one after the other; null when the platform does not tell (then the pid alone is judged).
 * Linux: field 22 of /proc/<pid>/stat (clock ticks since boot); macOS and BSD: `ps -o lstart=`.
 */
export function processStartTime(pid: number): string | null {
  try {
    if (process.platform === 'linux') {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
      // The command name (field 2) is in parentheses and may hold spaces: count fields after its ")".
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
    }
    if (process.platform === 'win32') return null;
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 }).trim();
    return out || null;
  } catch {
    return null;
  }
}

/** A job owner's process part: `pid@start` (start time made filename-safe), or `pid` for owners written before. */
export function ownerProcess(): string {
  const start = processStartTime(process.pid);
  return start === null ? String(process.pid) : `${process.pid}@${start.replace(/[^\w.-]+/g, '_')}`;
}

/**
 * Whether the process that wrote `owner` still runs: its pid answers a signal 0 and, when the
 * owner recorded a start time, the process with that pid started then (a pid reused by another
 * program after a crash would otherwise keep the job "running" forever).
 */
export function ownerProcessAlive(owner: string): boolean {
  const [pidText = '', start] = owner.split(':')[0]!.split('@');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (start === undefined) return true;
  const now = processStartTime(pid);
  return now === null || now.replace(/[^\w.-]+/g, '_') === start;
}
