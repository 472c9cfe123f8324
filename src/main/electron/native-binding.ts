import fs from 'node:fs';
import path from 'node:path';

/**
 * node_modules/better-sqlite3 holds the Node-ABI build (tests, CLI, browser mode). Inside Electron
 * we load the Electron-ABI build that scripts/electron-native.mjs makes when the Electron runtime
 * is installed (reference/stack.md). Every connection in Electron — workers too — passes it.
 */
export function electronNativeBinding(
  appRoot: string,
  exists: (p: string) => boolean = fs.existsSync,
): string | undefined {
  const candidate = path.join(appRoot, 'build', 'electron-native', 'better_sqlite3.node');
  return exists(candidate) ? candidate : undefined;
}
