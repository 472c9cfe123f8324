import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createCore } from '../../src/main/core';
import { FIXED_NOW, tempDir } from './test-core';

export const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A closed workspace file (schema at head) in a fresh folder, optionally with the demo plan. */
export async function makeWorkspaceFile(opts: { seedDemo?: boolean; name?: string } = {}): Promise<string> {
  const file = path.join(tempDir(), opts.name ?? 'ws.coworkenv.db');
  const core = createCore({
    workspacePath: file,
    clock: () => FIXED_NOW,
    seedDemo: opts.seedDemo ?? false,
    watchIntervalMs: 0,
  });
  await core.close();
  return file;
}

/** Copies a closed workspace file (no -wal/-shm after a clean close) to a new folder. */
export function copyWorkspace(file: string, name = path.basename(file)): string {
  const to = path.join(tempDir(), name);
  fs.copyFileSync(file, to);
  return to;
}
