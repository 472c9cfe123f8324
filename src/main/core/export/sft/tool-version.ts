import fs from 'node:fs';
import path from 'node:path';

const NAME = 'coworkenv-studio';
let cached: { name: string; version: string } | undefined;

/**
 * The app's name and version from its package.json, found by walking up from this module (the
 * source tree under tests, out/main in the build, the app folder when packaged). The core cannot
 * import package.json (it sits outside the core's allowed imports), so it reads it once at runtime.
 */
export function toolVersion(): { name: string; version: string } {
  if (cached) return cached;
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const file = path.join(dir, 'package.json');
    try {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === NAME && typeof pkg.version === 'string') return (cached = { name: NAME, version: pkg.version });
    } catch {
      // not here: keep walking up
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return (cached = { name: NAME, version: 'unknown' });
}
