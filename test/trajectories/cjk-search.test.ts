import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { splitCjk } from '../../src/main/core/trajectories/cjk-search';
import { ok } from '../helpers/call';
import { createTestCore, tempDir } from '../helpers/test-core';
import { importFiles } from '../helpers/trajectory-import';

const CLAUSE = '请把万象城的库存报告发给我';
const line = (user: string, assistant: string) =>
  JSON.stringify({
    messages: [
      { role: 'user', content: user },
      { role: 'assistant', content: assistant },
    ],
  });

/** Issue 21 item 8: CJK text is found by substring (1–2 characters too); English word search is unchanged. */
describe('search in Chinese text finds substrings', () => {
  let core: Core;
  let ids: number[];
  beforeAll(async () => {
    core = createTestCore().core;
    const file = path.join(tempDir('cjk-'), 'runs.jsonl');
    const lines = [
      line(CLAUSE, '好的，已发送。'),
      line('万象更新，今天的天气怎么样？', 'It is sunny in Shanghai today.'),
      line('Send the inventory report', 'Done: the report is in your inbox.'),
      line('库存', '库存报告 ready'),
    ];
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    expect((await importFiles(core, { paths: [file], format: 'openai-jsonl' })).stored).toBe(4);
    ids = (await ok(core, 'trajectories.list', { sort: [{ field: 'id', dir: 'asc' }] })).rows.map((r) => r.id);
  });
  afterAll(() => core.close());

  const found = async (query: string) =>
    (await ok(core, 'trajectories.search', { query })).hits.map((h) => ids.indexOf(h.id)).sort();
  const listed = async (query: string) =>
    (await ok(core, 'trajectories.list', { text: { query, mode: 'words' } })).rows.map((r) => ids.indexOf(r.id)).sort();

  it('a 2-character term inside a clause (LIKE on the CJK index), in search and the grid filter', async () => {
    expect(await found('万象')).toEqual([0, 1]);
    expect(await listed('万象')).toEqual([0, 1]);
    expect(await found('象')).toEqual([0, 1]);
  });

  it('a ≥ 3-character term (trigram MATCH), the whole clause, and several terms (all required)', async () => {
    expect(await found('库存报告')).toEqual([0, 3]);
    expect(await found(CLAUSE)).toEqual([0]);
    expect(await found('万象 库存')).toEqual([0]);
    expect(await found('库存报告 ready')).toEqual([3]);
  });

  it('highlights the CJK term in the snippet', async () => {
    const { hits } = await ok(core, 'trajectories.search', { query: '万象' });
    for (const h of hits) {
      expect(h.highlights.length).toBeGreaterThan(0);
      const [a, b] = h.highlights[0]!;
      expect(h.snippet.slice(a, b)).toBe('万象');
    }
  });

  it('English word search is as before', async () => {
    expect(await found('report')).toEqual([2]);
    expect(await found('sunny')).toEqual([1]);
    expect(await found('repo*')).toEqual([2]);
  });

  it('splits mixed words into CJK terms and words', () => {
    expect(splitCjk('万象abc  report* 库存')).toEqual({ words: 'abc report*', cjk: ['万象', '库存'] });
  });
});
