import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok } from '../helpers/call';
import { makeWorkspaceFile } from '../helpers/files';
import { createTestCore, tempDir } from '../helpers/test-core';
import { allRows, hasTrajCorpus, importFiles, TAU2_RESULTS, TAU_BENCH } from '../helpers/trajectory-import';
import { runCliCaptured } from '../helpers/transports';

const row = (task: string, trial: number, reward: unknown = 1) =>
  JSON.stringify({
    task_id: task,
    trial,
    reward,
    messages: [
      { role: 'user', content: `please do ${task}` },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{"q":1}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
      { role: 'assistant', content: 'done' },
    ],
  });

describe('trajectories.import refuses bad records with their file and line, and keeps every good one', () => {
  let core: Core;
  const dir = tempDir('bad-input-');
  const write = (name: string, data: string | Buffer) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, data);
    return f;
  };
  beforeAll(() => {
    core = createTestCore().core;
  });
  afterAll(async () => {
    await core.close();
  });

  it('JSONL: invalid JSON, wrong types, bad reward, invalid UTF-8, a 100 MB line, a truncated last line', async () => {
    const big = `{"task_id":"big","messages":[{"role":"user","content":"${'x'.repeat(100 * 1024 * 1024)}"}]}`;
    const lines: (string | Buffer)[] = [
      row('a', 0), //                                                          line 1: good
      '{"task_id": "b", "messages": [', //                                       2: invalid JSON
      '', //                                                                     3: blank, skipped
      JSON.stringify({ task_id: 'c', messages: 'hello' }), //                    4: wrong type
      row('d', 0, 'lots'), //                                                    5: bad reward
      Buffer.concat([
        Buffer.from('{"task_id":"e","messages":[{"role":"user","content":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}]}'),
      ]), // 6
      big, //                                                                    7: 100 MB
      `${row('f', 0)}\r`, //                                                     8: good, CRLF
      JSON.stringify({ task_id: 'g', messages: [{ role: 'robot', content: 'x' }] }), // 9: unknown role
      row('h', 2, true), //                                                     10: good, reward true → 1
      row('i', 0).slice(0, 80), //                                              11: truncated, no newline
    ];
    const file = write(
      'mixed.jsonl',
      Buffer.concat(
        lines.map((l, i) => Buffer.concat([Buffer.from(l), Buffer.from(i < lines.length - 1 ? '\n' : '')])),
      ),
    );
    const r = await importFiles(core, { paths: [file] });
    expect(r).toMatchObject({ records: 10, stored: 3, refused: 7, duplicates: 0, issueCount: 7 });
    expect(r.issues.map((i) => [i.line, i.record])).toEqual([
      [2, 1],
      [4, 2],
      [5, 3],
      [6, 4],
      [7, 5],
      [9, 7],
      [11, 9],
    ]);
    const msg = r.issues.map((i) => i.message);
    expect(msg[0]).toMatch(/^not valid JSON/);
    expect(msg[1]).toBe('messages: must be an array, not a string');
    expect(msg[2]).toMatch(/^reward: bad_reward/);
    expect(msg[3]).toBe('invalid UTF-8 at byte 57 of the record');
    expect(msg[4]).toBe('the line is 100.0 MB long, over the 64.0 MB limit of one record; skipped');
    expect(msg[5]).toBe('messages[0].role: unknown role "robot"');
    expect(msg[6]).toMatch(/not valid JSON.*looks truncated/);
    expect(r.issues.every((i) => i.file === file)).toBe(true);
    const rows = await allRows(core, [
      { field: 'collection', operator: 'AND', conditions: [{ op: 'equals', value: 'mixed' }] },
    ]);
    expect(rows.map((x) => [x.source_task_id, x.trial, x.source_reward])).toEqual([
      ['a', 0, 1],
      ['f', 0, 1],
      ['h', 2, 1],
    ]);
  }, 120_000);

  it('counts every bad line, not a capped sample; the CLI prints each and exits 1', async () => {
    const ws = await makeWorkspaceFile();
    const lines = Array.from({ length: 130 }, (_, i) => (i % 2 ? row(`t${i}`, 0) : `{"broken": ${i}`));
    const file = write('many-bad.jsonl', `${lines.join('\n')}\n`);
    const cli = await runCliCaptured(['--workspace', ws, 'trajectories', 'import', file, '--format', 'openai-jsonl']);
    expect(cli.code).toBe(1);
    const printed = cli.stderr.split('\n').filter((l) => l.startsWith(`${file}:`));
    expect(printed).toHaveLength(65);
    expect(printed[64]).toMatch(/:129: not valid JSON/);
    expect(cli.stdout).toContain(
      '65 stored (0 graded, 65 of tasks not in the workspace), 0 duplicates, 65 refused; 65 issues',
    );
  }, 60_000);

  it('files it cannot read: unknown formats, text, empty files; the others still import', async () => {
    const unknown = write('unknown.jsonl', '{"foo": 1}\n{"foo": 2}\n');
    const text = write('notes.json', 'These are my notes.\n');
    const empty = write('empty.jsonl', '');
    const good = write('good.jsonl', `${row('ok', 0)}\n`);
    const r = await importFiles(core, { paths: [unknown, text, empty, good] });
    expect(r.files.map((f) => [f.format, f.error === null, f.stored])).toEqual([
      [null, false, 0],
      [null, false, 0],
      [null, false, 0],
      ['openai-jsonl', true, 1],
    ]);
    expect(r.files[0]!.error).toMatch(/cannot tell the format \(the first record has keys foo\): give --format/);
    expect(r.files[1]!.error).toMatch(/not JSON or JSON Lines/);
    expect(r.files[2]!.error).toBe('the file is empty');
    expect(r).toMatchObject({ stored: 1, refused: 3, issueCount: 3 });
  });

  it.skipIf(!hasTrajCorpus)(
    'a JSON array or a τ² results file cut off mid-record: the records before are kept',
    async () => {
      const tau = fs.readFileSync(TAU_BENCH);
      // The fourth record's first key ("task_id": 3 in ../shared): a record's keys are the lines indented by four.
      const key = '\n    "task_id": ';
      let at = -1;
      for (let i = 0; i < 4; i++) at = tau.indexOf(key, at + 1);
      const cutAt = at + '\n    '.length;
      const cut = write('tau-cut.json', tau.subarray(0, cutAt + 400));
      const line = tau.subarray(0, cutAt).toString().split('\n').length;
      const r = await importFiles(core, { paths: [cut] });
      expect(r).toMatchObject({ stored: 3, refused: 1, issueCount: 1 });
      expect(r.issues[0]).toMatchObject({
        file: cut,
        line: line - 1,
        message: 'element 4 is cut off at the end of the file (truncated?)',
      });
      const t2 = fs.readFileSync(TAU2_RESULTS);
      // Cut at the fifth simulation's "task_id" (at the last one's in a file of fewer): the ones before it are kept.
      const n = Math.min(5, (JSON.parse(t2.toString()) as { simulations: unknown[] }).simulations.length);
      let sim = t2.indexOf('"simulations"');
      for (let i = 0; i < n; i++) sim = t2.indexOf('"task_id"', sim + 1);
      const r2 = await importFiles(core, { paths: [write('tau2-cut.json', t2.subarray(0, sim))] });
      expect(r2).toMatchObject({ stored: n - 1, refused: 1 });
      expect(r2.files[0]!.format).toBe('tau2');
    },
  );

  it('a --task that is not in the workspace keeps the records as external, with their rewards', async () => {
    const r = await importFiles(core, { paths: [write('ext.jsonl', `${row('x', 0, 0.25)}\n`)], taskId: 'T404_nope' });
    expect(r).toMatchObject({ stored: 1, external: 1, graded: 0 });
    const got = await ok(core, 'trajectories.list', { sort: [{ field: 'id', dir: 'desc' }], limit: 1 });
    expect(got.rows[0]).toMatchObject({
      task_id: 'T404_nope',
      source_task_id: 'x',
      source_reward: 0.25,
      external: true,
    });
  });
});
