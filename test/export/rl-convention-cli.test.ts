import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fail, ok } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

/** Issue 18 item 7: the convention is chosen on the command line and the contract, and recorded in the package. */
// One reference run (a job worker through tsx) makes the rollouts: seconds on a busy machine.
describe('export rl --convention', { timeout: 120_000 }, () => {
  let t: ReturnType<typeof runWorkspace>;
  const cli = (...argv: string[]) => runCliCaptured(['--workspace', t.workspacePath, ...argv]);
  const out = () => path.join(tempDir('convention-out-'), 'pkg');

  beforeAll(async () => {
    t = runWorkspace(generatedTasks(2));
    const run = await cli('run', '--tasks', 'all', '--trials', '2', '--agent', 'reference');
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(() => t.core.close());

  it('writes the chosen convention into the manifest; the default is verl', async () => {
    const dir = out();
    const r = await cli('export', 'rl', '--out', dir, '--convention', 'paper');
    expect(r.code, r.stderr).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.advantage).toMatchObject({ method: 'grpo', std_floor: 0.05, convention: { name: 'paper' } });
    expect(manifest.inputs.selection).toMatchObject({ advantage: 'grpo', convention: 'paper' });
    const plain = out();
    expect((await cli('export', 'rl', '--out', plain)).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(plain, 'manifest.json'), 'utf8')).advantage.convention.name).toBe(
      'verl',
    );
  });

  it("--tokenizer: verl length limits in the named model's real tokens, not characters", async () => {
    const chars = out();
    expect((await cli('export', 'rl', '--out', chars, '--no-rollouts')).code).toBe(0);
    const tokens = out();
    const r = await cli('export', 'rl', '--out', tokens, '--no-rollouts', '--tokenizer', 'qwen2.5');
    expect(r.code, r.stderr).toBe(0);
    const lengths = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).verl.lengths;
    const [c, k] = [lengths(chars), lengths(tokens)];
    expect(c.unit).toBe('characters');
    expect(k).toMatchObject({ unit: 'tokens', counter: expect.stringMatching(/qwen2\.5 tokenizer/) });
    // BPE tokens of English-like text are several characters each.
    expect(k.maxPromptLength).toBeLessThan(c.maxPromptLength / 2);
    expect((await cli('export', 'rl', '--out', out(), '--tokenizer', 'gpt2')).code).toBe(2);
  });

  it('refuses a convention the trainer lacks before any job, and an unknown one', async () => {
    const dir = out();
    const r = await cli('export', 'rl', '--out', dir, '--advantage', 'gigpo', '--convention', 'trl');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/GiGPO lives in verl-agent\); choose the convention paper or verl/);
    expect(r.stderr).not.toMatch(/^job /m);
    expect(fs.existsSync(dir)).toBe(false);
    const bad = await cli('export', 'rl', '--out', dir, '--convention', 'torch');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--convention must be one of paper, verl, trl, not "torch"/);
  });

  it('the preview takes the convention; verl refuses GDPO there too', async () => {
    const trl = await ok(t.core, 'export.rlPreview', { advantage: 'gdpo' });
    expect(trl.preview.settings).toMatchObject({ method: 'gdpo', convention: { name: 'trl' } });
    const paper = await ok(t.core, 'export.rlPreview', { advantage: 'grpo', convention: 'paper' });
    expect(paper.preview.settings).toMatchObject({ convention: { name: 'paper' } });
    const e = await fail(t.core, 'export.rlPreview', { advantage: 'gdpo', convention: 'verl' });
    expect(e).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/verl v0\.9\.0 has no gdpo/) });
  });
});
