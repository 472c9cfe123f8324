import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import demoPlan from '../../resources/seed/demo-plan.json';
import { REPO_ROOT, tempDir } from '../helpers/test-core';

const RACERS = 4;
const ROUNDS = 20;

type Racer = { proc: ChildProcess; next(): Promise<string> };

/** A long-lived child process (tsx) that opens workspaces on request: startup cost is paid once, races stay real. */
function startRacer(): Racer {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'test/helpers/workspace-racer.ts')], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  readline.createInterface({ input: proc.stdout! }).on('line', (l) => {
    const w = waiting.shift();
    if (w) w(l);
    else lines.push(l);
  });
  return {
    proc,
    next: () => {
      const l = lines.shift();
      return l !== undefined ? Promise.resolve(l) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

const racers: Racer[] = [];
afterAll(() => {
  for (const r of racers) r.proc.kill();
});

describe('first start of a workspace by several processes at once', () => {
  it(`${ROUNDS} rounds × ${RACERS} racing on a new file: one file, one demo plan, all acked writes`, async () => {
    racers.push(...Array.from({ length: RACERS }, startRacer));
    const dir = tempDir();
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const file = path.join(dir, `race-${round}.coworkenv.db`);
      // Every racer gets its line in the same tick; each opens the file as soon as it reads it.
      for (const [i, r] of racers.entries()) r.proc.stdin!.write(`${file} race${round}-p${i}\n`);
      const answers = await Promise.all(racers.map((r) => r.next()));
      const acked = answers
        .map((a) => JSON.parse(a) as { ok: boolean; data?: { slots: { family: string }[] }; error?: unknown })
        .flatMap((a, i) =>
          a.ok ? [`race${round}-p${i}`] : (failures.push(`round ${round} p${i}: ${JSON.stringify(a.error)}`), []),
        );
      const db = new Database(file, { readonly: true, fileMustExist: true });
      const families = (db.prepare('SELECT family FROM coverage_slots').all() as { family: string }[]).map(
        (r) => r.family,
      );
      db.close();
      expect(families.filter((f) => !f.startsWith('race')).length, `round ${round}: demo slots`).toBe(
        demoPlan.slots.length,
      );
      for (const label of acked) expect(families, `round ${round}: acknowledged write ${label}`).toContain(label);
    }
    // Opening a workspace that another process is creating is not an error either.
    expect(failures).toEqual([]);
  }, 240_000);
});
