import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SftManifest } from '../../src/shared/contract/entities/export';
import { makeWorkspaceFile } from '../helpers/files';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

describe('export.sft job on more rows than one progress step', () => {
  // Progress is committed every 1,000 records, on the connection that reads the rows: the rows must
  // not be read through an open iterator then (SQLite: "connection is busy executing a query").
  it('exports 2,500 stored trajectories, committing progress between pages of rows', async () => {
    const ws = await makeWorkspaceFile();
    const dir = tempDir('export-job-');
    const file = path.join(dir, 'chats.jsonl');
    const lines = Array.from({ length: 2500 }, (_, i) =>
      JSON.stringify({
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: `What is ${i} + 1?` },
          { role: 'assistant', content: `It is ${i + 1}.` },
          { role: 'user', content: 'Thanks. And doubled?' },
          { role: 'assistant', content: `Doubled, ${i + 1} is ${2 * (i + 1)}.` },
        ],
      }),
    );
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const cli = (...argv: string[]) => runCliCaptured(['--workspace', ws, ...argv]);
    expect((await cli('trajectories', 'import', file)).code).toBe(0);
    const out = path.join(dir, 'out');
    const pools = JSON.stringify({ pools: { mixed: { minReward: null, converter: true } } });
    const r = await cli('export', 'sft', '--dialect', 'openai', '--out', out, '--all-uncurated', '--options', pools);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/running: (metadata|convert): \d+ of 2500/);
    const m = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as SftManifest;
    expect(m.report.input).toBe(2500);
    expect(m.report.exported).toBe(2500);
  }, 180_000); // imports 2,500 trajectories first: minutes on a loaded 2-core machine
});
