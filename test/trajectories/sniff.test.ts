import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniff } from '../../src/main/core/trajectories/import/sniff';
import { tempDir } from '../helpers/test-core';

/**
 * Format sniffing by structure (issue 17): the member names of the first record decide, however far
 * into the file they are, so a τ² header or a first τ-bench record over 1 MB is no longer refused.
 */
describe('sniff tells a format by structure, not by the first MB', () => {
  const dir = tempDir('sniff-');
  const write = (name: string, data: string) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, data);
    return f;
  };
  const MB = 1024 * 1024;
  const sim = { id: 's1', task_id: '1', trial: 0, reward_info: { reward: 1 }, messages: [] };
  /** τ² tasks whose user scenarios mention "messages": the old prefix scan took such a file for OpenAI JSONL. */
  const tasks = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: String(i),
      user_scenario: { messages: ['hi'], note: 'x'.repeat(200) },
    }));

  it('a one-line τ² results file whose header (info + tasks) is over 1 MB', () => {
    const header = { timestamp: 't', info: { environment_info: { policy: 'p'.repeat(MB) } }, tasks: tasks(6000) };
    const text = JSON.stringify({ ...header, simulations: [sim] });
    expect(text.indexOf('"simulations"')).toBeGreaterThan(2 * MB);
    expect(text).not.toContain('\n');
    expect(sniff(write('big-header.json', text), 'auto')).toEqual({ format: 'tau2', container: 'object' });
  });

  it('a one-line τ² file with info and tasks but no simulations is still a τ² file (its reader says why not)', () => {
    const text = JSON.stringify({ info: { policy: 'p'.repeat(2 * MB) }, tasks: tasks(2) });
    expect(sniff(write('no-sims.json', text), 'auto')).toEqual({ format: 'tau2', container: 'object' });
  });

  it('a τ-bench array whose first element is over 1 MB (its traj after a large info)', () => {
    const first = { task_id: 0, reward: 1, info: { note: 'n'.repeat(2 * MB) }, traj: [{ role: 'user', content: 'a' }] };
    const text = `[\n  ${JSON.stringify(first)},\n  ${JSON.stringify({ ...first, task_id: 1, info: {} })}\n]\n`;
    expect(sniff(write('tau-big.json', text), 'auto')).toEqual({ format: 'tau-bench', container: 'array' });
  });

  it('a JSON Lines file whose first record is over 1 MB, and one whose first line is broken', () => {
    const big = JSON.stringify({ meta: 'm'.repeat(2 * MB), conversations: [] });
    expect(sniff(write('big.jsonl', `${big}\n`), 'auto')).toEqual({ format: 'sharegpt', container: 'jsonl' });
    const broken = `{"broken": 1\n${JSON.stringify({ messages: [] })}\n`;
    expect(sniff(write('broken-first.jsonl', broken), 'auto')).toEqual({ format: 'openai-jsonl', container: 'jsonl' });
  });

  it('small cases: pretty τ², Claw-Eval, OpenAI rows, a BOM, named formats, refusals; nested keys do not count', () => {
    const pretty = JSON.stringify({ info: {}, simulations: [] }, null, 2);
    expect(sniff(write('pretty.json', pretty), 'auto')).toEqual({ format: 'tau2', container: 'object' });
    const event = JSON.stringify({ type: 'trace_start', trace_id: 't', data: {} });
    expect(sniff(write('trace.jsonl', `${event}\n`), 'auto')).toEqual({ format: 'claw-eval', container: 'whole' });
    const row = `\uFEFF${JSON.stringify({ task_id: 'a', messages: [] })}\n`;
    expect(sniff(write('rows.jsonl', row), 'auto')).toEqual({ format: 'openai-jsonl', container: 'jsonl' });
    expect(sniff(write('named.jsonl', '{"foo": 1}\n'), 'sharegpt')).toEqual({ format: 'sharegpt', container: 'jsonl' });
    expect(sniff(write('arr.json', '[{"foo": 1}]'), 'tau2')).toEqual({
      error: 'a JSON array, but tau2 files are not arrays',
    });
    expect(sniff(write('unknown.jsonl', '{"foo": 1, "bar": {"messages": 1}}\n{"foo": 2}\n'), 'auto')).toEqual({
      error:
        'cannot tell the format (the first record has keys foo, bar): give --format ' +
        'claw-eval|tau-bench|tau2|openai-jsonl|sharegpt',
    });
    expect(sniff(write('text.json', '  These are my notes.'), 'auto')).toEqual({
      error: 'not JSON or JSON Lines: it starts with "These are my notes."',
    });
    expect(sniff(write('blank.jsonl', ' \n\n'), 'auto')).toEqual({ error: 'the file is empty' });
  });
});
