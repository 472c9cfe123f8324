import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { tempDir } from '../helpers/test-core';

it('stores the search index merge settings in the index config, where every connection reads them', async () => {
  const file = path.join(tempDir(), 'w.coworkenv.db');
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
  const db = new Database(file, { readonly: true });
  try {
    const config = db.prepare('SELECT k, v FROM trajectories_fts_config ORDER BY k').all();
    expect(config).toEqual(
      expect.arrayContaining([
        { k: 'automerge', v: 8 },
        { k: 'crisismerge', v: 32 },
      ]),
    );
  } finally {
    db.close();
  }
});
