import fs from 'node:fs';
import path from 'node:path';

const found = new Map<string, string>();

/**
 * The app's resources/<sub> folder, found by walking up from this module (the source tree under tests, out/main in
 * the build, the app folder when packaged), as tool-version.ts finds package.json: the core has no resources path
 * of its own, and these files are too large to bundle.
 */
export function resourceDir(sub: string): string {
  const hit = found.get(sub);
  if (hit) return hit;
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'resources', sub);
    if (fs.existsSync(candidate)) {
      found.set(sub, candidate);
      return candidate;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`resources/${sub} is missing beside the app (looked upward from ${__dirname})`);
}
