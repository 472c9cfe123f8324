import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ownerProcessAlive } from '../jobs/process-start';
import { holdsWorkspace, refuseReplacing } from './export-target';

/**
 * An export is written into a hidden sibling of its target, `.<name>.partial-<pid>-<8 hex>`, and
 * swapped in by two renames; an overwritten export is first moved aside as
 * `.<name>.replaced-<pid>-<8 hex>`. A process killed in between leaves those behind (9 of 40 killed
 * SFT exports did). The next export into the same folder cleans them up, but only those whose
 * process is gone: another export may be writing its own right now (jobs run in worker threads, so
 * this process's own pid counts as alive too).
 */
export type TempKind = 'partial' | 'replaced';

/** This process and a random part: two exports of one process never share a name. */
export const tempTag = (): string => `${process.pid}-${randomBytes(4).toString('hex')}`;

export const tempSibling = (target: string, kind: TempKind, tag: string): string =>
  path.join(path.dirname(target), `.${path.basename(target)}.${kind}-${tag}`);

const OURS = /^\.(.+)\.(partial|replaced)-(\d+)-[0-9a-f]{8}$/;
/**
 * Names the RL and Claw-Eval writer used before its names carried a pid. Their owner cannot be
 * asked, so they are treated as dead: only an older build exporting into the same folder at the same
 * moment could own one, and the worst that does to it is fail its export (a `.old-` folder is
 * restored or kept, never lost; see below).
 */
const LEGACY = /^\.(.+)\.(tmp|old)-[0-9a-f]{12}$/;

type Leftover = { name: string; base: string; aside: boolean; pid: number | null };

function leftoverOf(name: string): Leftover | null {
  const m = OURS.exec(name);
  if (m) return { name, base: m[1]!, aside: m[2] === 'replaced', pid: Number(m[3]) };
  const l = LEGACY.exec(name);
  return l ? { name, base: l[1]!, aside: l[2] === 'old', pid: null } : null;
}

const exists = (p: string) => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * Cleans the leftovers of dead exports in `parent`. A partial folder is removed. A folder moved
 * aside is the previous export: when its target is missing (killed between the two renames) it is
 * renamed back; otherwise it is removed only if it passes the overwrite guard (so a folder the
 * unguarded code moved aside, which may hold a user's files, is kept). Nothing holding the open
 * workspace is touched. Best effort: a failure here never stops the export; answers what it did.
 */
export function cleanLeftovers(parent: string, workspacePath?: string): { restored: string[]; removed: string[] } {
  const done = { restored: [] as string[], removed: [] as string[] };
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return done; // no folder yet: nothing left over
  }
  const found = names
    .map(leftoverOf)
    .filter((l): l is Leftover => l !== null && (l.pid === null || !ownerProcessAlive(String(l.pid))))
    // Restores first, so a partial of the same export goes only once its previous one is back.
    .sort((a, b) => Number(b.aside) - Number(a.aside));
  for (const l of found) {
    const abs = path.join(parent, l.name);
    try {
      if (!fs.lstatSync(abs).isDirectory() || holdsWorkspace(abs, workspacePath)) continue;
      if (l.aside) {
        const target = path.join(parent, l.base);
        if (!exists(target)) {
          fs.renameSync(abs, target);
          done.restored.push(target);
          continue;
        }
        refuseReplacing(abs, workspacePath);
      }
      fs.rmSync(abs, { recursive: true, force: true });
      done.removed.push(abs);
    } catch {
      // Kept: not provably ours, or it could not be moved or removed (permissions); never fatal.
    }
  }
  return done;
}
