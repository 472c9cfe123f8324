import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { CLOCK, deterministicTask, planTurns, rollout } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

const task = deterministicTask();
const A = rollout(task, planTurns(task), task.spec.reference_final_text!, 'A');
const B = rollout(task, [[{ tool: 'gmail_list_messages', args: { days_back: 2 } }]], 'Done.', 'B');
const C = rollout(task, [[{ tool: 'gmail_list_messages', args: { days_back: 1 } }]], 'Nothing.', 'C');

async function exported(advantage: Parameters<typeof exportRlPackage>[0]['advantage']) {
  const out = path.join(tempDir(), 'pkg');
  await exportRlPackage({ tasks: [task], rollouts: [A, B, C], advantage, outDir: out, clock: CLOCK });
  const read = (rel: string) =>
    fs.existsSync(path.join(out, rel)) ? fs.readFileSync(path.join(out, rel), 'utf8') : null;
  return { manifest: JSON.parse(read('manifest.json')!), read };
}

describe("the package records the advantages' convention and carries the trainer settings", () => {
  it('GRPO by default: verl v0.9.0 arithmetic recorded, verl overrides and TRL kwargs written', async () => {
    const { manifest, read } = await exported('grpo');
    expect(manifest.advantage.convention).toMatchObject({
      name: 'verl',
      std: 'sample (n − 1, torch.std)',
      denominator: 'σ + 0.000001',
      source: { tag: 'v0.9.0', advantage: expect.stringMatching(/core_algos\.py:\d+-\d+ compute_grpo_outcome/) },
    });
    expect(manifest.advantage.convention.singleton).toMatch(/μ = 0, σ = 1/);
    expect(manifest.advantage).toMatchObject({ group_size: 8, min_valid_rollouts: 1 });
    expect(read('verl/trainer_overrides.txt')!.split('\n')).toEqual([
      'algorithm.adv_estimator=grpo',
      'algorithm.norm_adv_by_std_in_grpo=true',
      'actor_rollout_ref.rollout.n=8',
      'actor_rollout_ref.actor.loss_agg_mode=seq-mean-token-mean',
      '',
    ]);
    expect(JSON.parse(read('trl/grpo_config.json')!)).toEqual({
      num_generations: 8,
      scale_rewards: 'group',
      loss_type: 'grpo',
    });
    expect(manifest.trainer.verl.provenance['actor_rollout_ref.rollout.n']).toMatch(/^\[paper\]/);
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining(['verl/trainer_overrides.txt', 'trl/grpo_config.json']),
    );
    // The verl settings join the README's one command (and each toolset's train_overrides.yaml).
    expect(read('README.md')).toContain('  actor_rollout_ref.rollout.n=8 \\\n');
  });

  it("Dr.GRPO: no σ, the paper's fixed 1,536-token denominator in both trainers' keys, no KL", async () => {
    const { manifest, read } = await exported({ method: 'drgrpo', convention: 'trl' });
    expect(manifest.advantage).toMatchObject({ method: 'drgrpo', token_denominator: 1536 });
    expect(manifest.advantage.convention).toMatchObject({ name: 'trl', source: { tag: 'v1.9.0' } });
    expect(read('verl/trainer_overrides.txt')).toContain(
      'algorithm.norm_adv_by_std_in_grpo=false\nactor_rollout_ref.rollout.n=8\n' +
        'actor_rollout_ref.actor.loss_agg_mode=seq-mean-token-sum-norm\n' +
        'actor_rollout_ref.actor.loss_scale_factor=1536\nactor_rollout_ref.actor.use_kl_loss=false\n',
    );
    // verl 0.9.0 has only the engine that reads loss_scale_factor (workers/utils/losses.py): no legacy switch.
    expect(read('verl/trainer_overrides.txt')).not.toContain('use_legacy_worker_impl');
    // The same settings join the package's own overrides, so the README's one command carries them.
    expect(read('README.md')).toContain('actor_rollout_ref.actor.loss_scale_factor=1536');
    expect(JSON.parse(read('trl/grpo_config.json')!)).toEqual({
      num_generations: 8,
      scale_rewards: 'none',
      loss_type: 'dr_grpo',
      max_completion_length: 1536,
      beta: 0,
    });
  });

  it('GDPO: TRL by default (verl has none), no verl overrides; a chosen paper convention is recorded', async () => {
    const trl = await exported('gdpo');
    expect(trl.manifest.advantage.convention.name).toBe('trl');
    expect(trl.read('verl/trainer_overrides.txt')).toBeNull();
    expect(trl.manifest.trainer.verl).toBeNull();
    expect(JSON.parse(trl.read('trl/grpo_config.json')!)).toMatchObject({
      multi_objective_aggregation: 'normalize_then_sum',
      reward_weights: [1, 1, 1],
    });
    const paper = await exported({ method: 'gdpo', convention: 'paper' });
    expect(paper.manifest.advantage.convention).toMatchObject({ name: 'paper', denominator: 'max(σ, 0.05) [paper]' });
    expect(paper.manifest.advantage.std_floor).toBe(0.05);
    await expect(exported({ method: 'gdpo', convention: 'verl' })).rejects.toThrow(/verl v0\.9\.0 has no gdpo/);
  });

  it("GiGPO: verl-agent's keys (step_advantage_w, mode, gamma, env.rollout.n) and no TRL config", async () => {
    const { manifest, read } = await exported('gigpo');
    expect(manifest.advantage.convention).toMatchObject({
      name: 'verl',
      source: { repo: 'langfengQ/verl-agent' },
      episode_stats_over: expect.stringMatching(/steps/),
    });
    expect(read('verl/trainer_overrides.txt')).toContain(
      'algorithm.adv_estimator=gigpo\nalgorithm.gamma=0.95\nalgorithm.gigpo.step_advantage_w=1\n' +
        'algorithm.gigpo.mode=mean_std_norm\n',
    );
    expect(read('verl/trainer_overrides.txt')).toContain('env.rollout.n=8\n');
    expect(read('trl/grpo_config.json')).toBeNull();
  });
});
