import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { freshEnvironment, taskClock } from '../../src/main/core/export/export-task';
import { overrideLines, verlTrainOverrides } from '../../src/main/core/export/rl/verl-config';
import type { TextCounter } from '../../src/main/core/export/rl/verl-lengths';
import type { PyValue } from '../../src/main/core/py/pyjson';
import { CLOCK, deterministicTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

/** Every key path of verl v0.9.0's PPO trainer config (test/fixtures/verl-v0.9.0/NOTICE.md). */
const KEYS = new Set(
  fs
    .readFileSync(path.join(__dirname, '../fixtures/verl-v0.9.0/ppo_trainer.keys.txt'), 'utf8')
    .split('\n')
    .filter(Boolean),
);
const flatten = (v: unknown, at: string[] = []): string[] =>
  v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length
    ? Object.entries(v).flatMap(([k, x]) => flatten(x, [...at, k]))
    : [at.join('.')];

const task = deterministicTask();

describe('verl v0.9.0 train config', () => {
  it('every generated key is in the release schema; README command and YAML say the same', async () => {
    const out = path.join(tempDir(), 'pkg');
    await exportRlPackage({ tasks: [task], outDir: out, clock: CLOCK });
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.verl.release).toMatchObject({ version: '0.9.0', tag: 'v0.9.0', pip: 'verl==0.9.0' });
    const set = manifest.verl.toolsets[0];
    const yaml = YAML.parse(fs.readFileSync(path.join(out, set.train_overrides), 'utf8'), { version: '1.1' });
    const keys = flatten(yaml);
    expect(keys.filter((k) => !KEYS.has(k))).toEqual([]);
    expect(keys).toContain('actor_rollout_ref.rollout.agent.agent_loop_config_path');
    const readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8');
    expect(readme).toContain('verl==0.9.0');
    const command = /python -m verl\.trainer\.main_ppo \\\n([\s\S]*?)```/.exec(readme)![1]!;
    const cliKeys = [...command.matchAll(/(?:^|\s)([a-z_][\w.]*)=/gm)].map((m) => m[1]!);
    expect(cliKeys.filter((k) => !KEYS.has(k))).toEqual([]);
    expect(new Set(cliKeys)).toEqual(
      new Set([...keys, 'actor_rollout_ref.model.path', 'actor_rollout_ref.rollout.name']),
    );
    expect(readme).not.toContain('interaction_config_path');
  });

  it('room for further keys (trainer settings) is checked the same way; a made-up key is caught', () => {
    const lengths = {
      unit: 'characters' as const,
      counter: 'c',
      maxPromptLength: 1,
      maxResponseLength: 1,
      maxToolResponseChars: 1,
      maxAssistantTurns: 1,
      maxUserTurns: 1,
      measured: {} as never,
    };
    const keys = (extra: Record<string, string | number>) =>
      overrideLines(verlTrainOverrides({ toolsetId: 't', lengths, extra })).map((l) => l.split('=')[0]!);
    expect(keys({ 'actor_rollout_ref.actor.loss_agg_mode': 'seq-mean-token-sum' }).every((k) => KEYS.has(k))).toBe(
      true,
    );
    expect(
      keys({ 'actor_rollout_ref.rollout.multi_turn.interaction_config_path': 'x' }).every((k) => KEYS.has(k)),
    ).toBe(false);
  });

  it('lengths from the tasks: no prompt filtered, no reference result cut, unit named', async () => {
    const env = freshEnvironment(task, taskClock(task.spec, CLOCK));
    const longest = Math.max(...task.spec.reference_plan!.map((s) => env.call(s.tool, s.args as PyValue).text.length));
    const out = path.join(tempDir(), 'pkg');
    await exportRlPackage({ tasks: [task], outDir: out, clock: CLOCK });
    const m = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).verl.lengths;
    expect(m.unit).toBe('characters');
    expect(m.maxToolResponseChars).toBeGreaterThanOrEqual(longest);
    expect(m.measured.longestToolResult.characters).toBe(longest);
    expect(m.maxPromptLength).toBeGreaterThan(m.measured.longestPrompt.length);
    expect(fs.readFileSync(path.join(out, 'README.md'), 'utf8')).toContain('in **characters**');
    // A real tokenizer's counts are used as tokens (here: one token per word, a stand-in).
    const words: TextCounter = { name: 'words', unit: 'tokens', countTokens: (t) => t.split(/\s+/).length };
    const out2 = path.join(tempDir(), 'pkg');
    await exportRlPackage({ tasks: [task], outDir: out2, clock: CLOCK, tokenizer: words });
    const t = JSON.parse(fs.readFileSync(path.join(out2, 'manifest.json'), 'utf8')).verl.lengths;
    expect(t.unit).toBe('tokens');
    expect(t.maxPromptLength).toBeLessThan(m.maxPromptLength);
    expect(t.maxToolResponseChars).toBe(m.maxToolResponseChars); // verl cuts results by characters either way
  });
});
