import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { MAX_JSON_DEPTH } from '../../src/main/core/lib/json-input';
import { ok } from '../helpers/call';
import { makeWorkspaceFile } from '../helpers/files';
import {
  deep,
  lineOf,
  openaiRow,
  sharegptRow,
  tau2File,
  tau2Simulation,
  tauBenchRecord,
  withRaw,
  writeIn,
} from '../helpers/hostile-records';
import { createTestCore, tempDir } from '../helpers/test-core';
import { allRows, importFiles } from '../helpers/trajectory-import';
import { runCliCaptured } from '../helpers/transports';

const TOO_DEEP = deep(MAX_JSON_DEPTH + 88);
const NESTED = new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`);
const jsonl = (...rows: string[]) => `${rows.join('\n')}\n`;
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

describe('a record nested deeper than the limit is refused at import with its line; the rest imports', () => {
  let core: Core;
  const dir = tempDir('hostile-');
  beforeAll(() => {
    core = createTestCore({ seedDemo: false }).core;
  });
  afterAll(async () => {
    await core.close();
  });

  /** Imports one file: `refused` records refused with these lines and messages, the others stored and readable. */
  async function expectRefused(file: string, stored: number, issues: [number, RegExp][]) {
    const r = await importFiles(core, { paths: [file] });
    expect(r.issues.map((i) => [i.line, i.message])).toEqual(issues.map(([l, m]) => [l, expect.stringMatching(m)]));
    expect(r).toMatchObject({ stored, refused: issues.length });
    const rows = await allRows(core, [
      { field: 'collection', operator: 'AND', conditions: [{ op: 'equals', value: r.files[0]!.collection }] },
    ]);
    expect(rows).toHaveLength(stored);
    // Every stored row opens: a deep record that slipped through answered INTERNAL "Maximum call stack size exceeded".
    for (const row of rows) expect((await ok(core, 'trajectories.get', { id: row.id })).row.id).toBe(row.id);
    return r;
  }

  it('openai-jsonl: a deep field, and deep JSON inside a tool call’s arguments string', async () => {
    const file = writeIn(
      dir,
      'openai.jsonl',
      jsonl(
        JSON.stringify(openaiRow('a')),
        withRaw(JSON.stringify(openaiRow('b', { metadata: { x: '@@' } })), TOO_DEEP),
        JSON.stringify(
          openaiRow('c', {
            messages: [
              { role: 'user', content: 'hi' },
              {
                role: 'assistant',
                tool_calls: [{ id: 'k', type: 'function', function: { name: 'f', arguments: TOO_DEEP } }],
              },
            ],
          }),
        ),
        JSON.stringify(openaiRow('d')),
        // Deep enough that, stored, trajectories.get overflowed the stack.
        withRaw(JSON.stringify(openaiRow('e', { metadata: '@@' })), deep(20_000)),
      ),
    );
    await expectRefused(file, 2, [
      [2, /^metadata\.x\[0\]\[0\]…: nested deeper than 512 levels$/],
      [3, /^messages\[1\]\.tool_calls\[0\]\.function\.arguments: the JSON it holds is nested deeper than 512/],
      [5, /^metadata\[0\]\[0\]\[0\]…: nested deeper than 512 levels$/],
    ]);
  });

  it('sharegpt: a deep field, a deep function_call value, a deep tools string', async () => {
    const file = writeIn(
      dir,
      'sharegpt.jsonl',
      jsonl(
        withRaw(JSON.stringify(sharegptRow('a', { scores: '@@' })), TOO_DEEP),
        JSON.stringify(sharegptRow('b')),
        JSON.stringify(
          sharegptRow('c', {
            conversations: [
              { from: 'human', value: 'hi' },
              { from: 'function_call', value: TOO_DEEP },
            ],
          }),
        ),
        JSON.stringify(sharegptRow('d', { tools: TOO_DEEP })),
      ),
    );
    await expectRefused(file, 1, [
      [1, /^scores\[0\]\[0\]\[0\]…: nested deeper/],
      [3, /^conversations\[1\]\.value: .*nested deeper than 512 levels/],
      [4, /^tools: .*nested deeper than 512 levels/],
    ]);
  });

  it('τ-bench (one JSON array): the element is refused at the line where the nesting passes the limit', async () => {
    const text = withRaw(
      pretty([tauBenchRecord(0), tauBenchRecord(1, { info: { task: { deep: '@@' } } }), tauBenchRecord(2)]),
      TOO_DEEP,
    );
    const file = writeIn(dir, 'tau.json', text);
    await expectRefused(file, 2, [[lineOf(text, '[[[['), /^info\.task\.deep\[0\]…: nested deeper/]]);
  });

  it('τ² results: a deep simulation is refused; a deep header refuses the file, nothing stored', async () => {
    const sims = [tau2Simulation('1'), tau2Simulation('2', { reward_info: { reward: 1, info: '@@' } })];
    const text = withRaw(pretty(tau2File([...sims, tau2Simulation('3')])), TOO_DEEP);
    await expectRefused(writeIn(dir, 'tau2.json', text), 2, [
      [lineOf(text, '[[[['), /^reward_info\.info\[0\]\[0\]…: nested/],
    ]);

    const header = withRaw(pretty(tau2File([tau2Simulation('1')], { tasks: '@@' })), TOO_DEEP);
    const r = await expectRefused(writeIn(dir, 'tau2-header.json', header), 0, [
      [lineOf(header, '[[[['), /^tasks\[0\]\[0\]\[0\]…: nested deeper than 512 levels$/],
    ]);
    expect(r.records).toBe(0);
  });

  it('the CLI prints file:line for each and exits 1', async () => {
    const ws = await makeWorkspaceFile();
    const file = writeIn(
      dir,
      'cli.jsonl',
      jsonl(JSON.stringify(openaiRow('a')), withRaw('{"messages": "@@"}', TOO_DEEP)),
    );
    const cli = await runCliCaptured(['--workspace', ws, 'trajectories', 'import', file]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(new RegExp(`${file}:2: messages\\[0\\]\\[0\\]\\[0\\]…: ${NESTED.source}`));
  });
});

describe('trailing data after a τ-bench or τ² JSON document refuses the file, nothing of it stored', () => {
  let core: Core;
  const dir = tempDir('trailing-');
  beforeAll(() => {
    core = createTestCore({ seedDemo: false }).core;
  });
  afterAll(async () => {
    await core.close();
  });

  const tau = pretty([tauBenchRecord(0), tauBenchRecord(1)]);
  const tau2 = pretty(tau2File([tau2Simulation('1'), tau2Simulation('2')]));
  // One line of 3 MB, not ASCII: the scan crosses window refills, the column counts characters, not bytes.
  const long = JSON.stringify([tauBenchRecord(0, { note: 'é'.repeat(1_500_000) })]);
  // [what, file name, text, offset of the first byte after the document that is not whitespace, message]
  const cases: [string, string, string, number, RegExp][] = [
    ['τ-bench: garbage after "]"', 'tau-garbage.json', `${tau}xyz\n`, tau.length, /^column 2: the JSON array ends/],
    ['τ-bench: a second document', 'tau-twice.json', `${tau}\n${tau}\n`, tau.length + 1, /^column 1: .*found "\["/],
    ['τ-bench, one long line', 'tau-long.json', `${long}xyz`, long.length, new RegExp(`^column ${long.length + 1}: `)],
    ['τ²: garbage after "}"', 'tau2-garbage.json', `${tau2}  ,\n`, tau2.length + 2, /^column 4: the JSON object ends/],
    ['τ²: a second document', 'tau2-twice.json', `${tau2}\n\n${tau2}`, tau2.length + 2, /^column 1: .*found "\{"/],
  ];
  for (const [what, name, text, at, message] of cases)
    it(what, async () => {
      const file = writeIn(dir, name, text);
      const r = await importFiles(core, { paths: [file] });
      expect(r).toMatchObject({ records: 0, stored: 0, refused: 1, issueCount: 1 });
      expect(r.issues[0]).toMatchObject({ file, line: text.slice(0, at).split('\n').length, record: null });
      expect(r.issues[0]!.message).toMatch(message);
      expect(r.issues[0]!.message).toMatch(/one JSON document; nothing of it was imported/);
    });

  it('whitespace after the document is fine', async () => {
    const r = await importFiles(core, { paths: [writeIn(dir, 'tau-ok.json', `\n${tau}\n\n  \t\n`)] });
    expect(r).toMatchObject({ stored: 2, refused: 0 });
  });
});
