import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SftExportResult, SftPreview } from '../../src/shared/contract/entities/export';
import type { Message } from '../../src/shared/contract/entities/trajectory';
import { exportSft, previewSft, type SftRecord } from '../../src/main/core/export/sft';
import { tempDir } from '../helpers/temp';
import { agentRun, batch, rec, say, sys, trajectory, user } from './build';

/**
 * The paper's accounting (formats.md §6.5): 1,809 records into the mixed-pool converter, 937 kept,
 * 494 + 142 + 140 + 96 rejected, retained averages 0.862 reward / 13.8 messages / 6.8 tool calls.
 * The set is built so each record fails exactly the check it is meant to (or several, where the
 * first-failure attribution is what is tested), plus records that steps 1–3 stop before the converter.
 */
function paperSet(): SftRecord[] {
  const out: SftRecord[] = [];
  const rewards = [0.75, 0.8, 0.9, 0.96, 0.9];
  const extraCalls = [5, 6, 7, 8, 8];
  for (let i = 0; i < 937; i++) {
    const id = `kept-${i}`;
    const calls = extraCalls[i % 5]!;
    // Every tenth kept record has 5,000-character observations: 40k+ raw, under budget once shortened to 1,000.
    const obs = i % 10 === 0 ? (k: number) => `${k}`.padEnd(5000, 'x') : undefined;
    out.push(rec(trajectory(id, agentRun(id, 5, calls, obs)), { reward: rewards[i % 5]! }));
  }
  for (let i = 0; i < 494; i++) {
    const id = `nouser-${i}`;
    // No user text at all, an empty user message, or a user message with nothing answering it.
    const shape: Message[] =
      i % 3 === 0
        ? [say('Hi! How can I help you today?'), ...batch(`nu${i}`, 2), say('Done.')]
        : i % 3 === 1
          ? [user('   '), ...batch(`nu${i}`, 3), say('Done.'), user(''), say('Anything else?')]
          : [sys('policy'), say('Welcome.'), user('I need help with order 7.')];
    out.push(rec(trajectory(id, shape)));
  }
  for (let i = 0; i < 142; i++) {
    const id = `short-${i}`;
    const shape: Message[] =
      i % 2 ? [sys('policy'), user('What is 2+2?'), say('4')] : [user('Check r1'), ...batch(`s${i}`, 1), say('ok')];
    out.push(rec(trajectory(id, shape)));
  }
  for (let i = 0; i < 140; i++) {
    const id = `many-${i}`;
    out.push(rec(trajectory(id, agentRun(id, 3, 21 + (i % 10)))));
  }
  for (let i = 0; i < 96; i++) {
    const id = `long-${i}`;
    // Over budget through a long answer (observations are shortened, answers are not) or a long system prompt.
    const long = 'y'.repeat(40_001);
    const shape = i % 2 ? [...agentRun(id, 2, 3).slice(0, -1), say(long)] : [sys(long), ...agentRun(id, 2, 2)];
    out.push(rec(trajectory(id, shape)));
  }
  // Stopped before the converter: they must not count in its 1,809.
  for (let i = 0; i < 30; i++) out.push(rec(trajectory(`low-${i}`, agentRun(`low-${i}`, 5, 6)), { reward: 0.49 }));
  for (let i = 0; i < 7; i++) out.push(rec(trajectory(`unscored-${i}`, agentRun(`u-${i}`, 5, 6)), { reward: null }));
  for (let i = 0; i < 11; i++)
    out.push(
      rec(trajectory(`hard-${i}`, agentRun(`h-${i}`, 5, 6)), {
        bucket: 'UNSOLVABLE',
        taskId: `hard-task-${i % 4}`,
        trial: i,
      }),
    );
  return out;
}

describe('the paper accounting (formats.md §6.5)', () => {
  const records = paperSet();

  it('reproduces 937 of 1,809 kept with 494 / 142 / 140 / 96, and the retained averages', () => {
    const preview = previewSft({ records, dialect: 'trl' });
    const { report, examples } = preview;
    expect(report.converter).toEqual({ in: 1809, kept: 937 });
    const count = (r: string) => report.rejections[r]?.count ?? 0;
    expect(count('no_usable_interaction')).toBe(494);
    expect(count('too_short')).toBe(142);
    expect(count('too_many_tool_calls')).toBe(140);
    expect(count('over_char_budget')).toBe(96);
    expect(494 + 142 + 140 + 96).toBe(1809 - 937);
    expect(count('below_threshold')).toBe(30);
    expect(count('reward_missing')).toBe(7);
    expect(count('unsolvable')).toBe(11);
    expect(report.unsolvableTasks).toEqual(['hard-task-0', 'hard-task-1', 'hard-task-2', 'hard-task-3']);
    expect(report.exported).toBe(937);
    expect(report.input).toBe(records.length);
    expect(report.rejected).toBe(records.length - 937);
    expect(report.retained.avgReward!.toFixed(3)).toBe('0.862');
    expect(report.retained.avgMessages!.toFixed(1)).toBe('13.8');
    expect(report.retained.avgToolCalls!.toFixed(1)).toBe('6.8');
    // The steps table chains: each step's out is the next one's in, and the last out is what is exported.
    for (let i = 1; i < report.steps.length; i++) expect(report.steps[i]!.in).toBe(report.steps[i - 1]!.out);
    expect(report.steps.find((s) => s.step === 'converter')).toEqual({ step: 'converter', in: 1809, out: 937 });
    expect(report.steps.at(-1)!.out).toBe(937);
    expect(examples.too_short![0]!.detail).toMatch(/messages \(fewer than 5\)/);
    // The shapes the UI receives are the contract's.
    expect(() => SftPreview.parse(preview)).not.toThrow();
    expect(examples.over_char_budget![0]!.detail).toMatch(/after shortening observations to 1000/);
  });

  it('writes one rejections.jsonl line per rejected record, with the same counts as the report', () => {
    const out = path.join(tempDir(), 'paper');
    const result = exportSft({ records, dialect: 'openai', outDir: out });
    const { report } = SftExportResult.parse(result);
    const lines = fs
      .readFileSync(path.join(out, 'rejections.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { record_id: string; reason: string; step: string });
    expect(lines).toHaveLength(report.rejected);
    const by = new Map<string, number>();
    for (const l of lines) by.set(l.reason, (by.get(l.reason) ?? 0) + 1);
    for (const [reason, r] of Object.entries(report.rejections)) expect(by.get(reason)).toBe(r.count);
    expect(new Set(lines.map((l) => l.record_id)).size).toBe(lines.length);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.report.converter).toEqual({ in: 1809, kept: 937 });
    expect(manifest.records).toHaveLength(937);
  });

  it('exports the shortened observations it measured, never splitting a surrogate pair', () => {
    const emoji = '😀'.repeat(1500); // 1,500 code points, 3,000 UTF-16 units
    const t = trajectory(
      'emoji',
      agentRun('emoji', 5, 5, () => emoji),
    );
    const { sample } = previewSft({ records: [rec(t)], dialect: 'trl' });
    const tool = (sample!.row as { messages: { role: string; content: string }[] }).messages.find(
      (m) => m.role === 'tool',
    )!;
    expect([...tool.content]).toHaveLength(1000);
    expect(tool.content).toBe('😀'.repeat(1000));
  });

  it('a pool without the converter keeps long observations whole and skips its filters', () => {
    const long = 'z'.repeat(3000);
    const t = trajectory('doc', [user('Extract.'), ...batch('d', 1, () => long), say('ok')]);
    const { report, sample } = previewSft({
      records: [rec(t, { pool: 'document_extraction', reward: 1 })],
      dialect: 'trl',
    });
    expect(report.converter.in).toBe(0);
    expect(report.exported).toBe(1);
    expect(JSON.stringify(sample!.row)).toContain(long);
  });
});
