import { describe, expect, it } from 'vitest';
import { anchorKeys } from '../../src/main/core/export/advantages/anchor-states';
import { computeAdvantages } from '../../src/main/core/export/advantages/compute';
import { previewAdvantages } from '../../src/main/core/export/advantages/preview';
import { DEFAULT_ADVANTAGE_SETTINGS as D } from '../../src/main/core/export/advantages/settings';
import { trivialRuns } from '../../src/main/core/export/advantages/trivial-runs';
import { freshEnvironment, taskClock } from '../../src/main/core/export/export-task';
import { CLOCK, handTask, planTurns, rollout } from '../helpers/rollouts';

const task = handTask();
const clockOf = () => taskClock(task.spec, CLOCK);
const env = () => freshEnvironment(task, clockOf());
const list = { tool: 'gmail_list_messages', args: { days_back: 2 } };
const read = { tool: 'gmail_get_message', args: { message_id: 'msg_101' } };
const raise = (id: string) => ({ tool: 'helpdesk_update_ticket', args: { ticket_id: id, priority: 'high' } });
const A = rollout(task, planTurns(task), 'I raised TK-3001 and drafted a reply.', 'A');
const B = rollout(task, [[list], [read], [raise('TK-3002')]], 'Raised TK-3002.', 'B');
const C = rollout(task, [[{ tool: 'helpdesk_list_tickets', args: { status: 'open' } }]], 'Nothing to do.', 'C');

describe('anchor states: environment state + observation, from a replay of the rollout', () => {
  it('the first turn is the shared initial state; equal histories share keys until they part', () => {
    const [a, b, c] = [A, B, C].map((t) => anchorKeys(t, env(), 'state+observation'));
    expect(a!.keys).toHaveLength(6); // 5 plan turns + the answer
    expect(new Set([a!.keys[0], b!.keys[0], c!.keys[0]]).size).toBe(1);
    expect(b!.keys.slice(0, 3)).toEqual(a!.keys.slice(0, 3)); // list, read, list-tickets vs raise…
    expect(b!.keys[3]).not.toBe(a!.keys[3]); // A listed tickets, B raised the wrong one
    expect(c!.keys[1]).not.toBe(a!.keys[1]); // same state (reads), different observation
    expect(a!.messageIndexes[0]).toBe(1);
    expect([a!.diverged, a!.unmatched]).toEqual([null, 0]);
  });
  it("'state' keys only on the services' state: reads leave it where it was, a write moves it", () => {
    const a = anchorKeys(A, env(), 'state');
    const c = anchorKeys(C, env(), 'state');
    expect(c.keys[1]).toBe(a.keys[0]);
    expect(a.keys[1]).toBe(a.keys[0]); // after list_messages: nothing changed
    expect(a.keys[4]).not.toBe(a.keys[3]); // after helpdesk_update_ticket
  });
  it('a rollout whose recorded statuses the replay does not reproduce is reported', () => {
    const bad = structuredClone(B);
    bad.dispatches[1]!.status = 500;
    expect(anchorKeys(bad, env(), 'state+observation').diverged).toMatchObject({
      step: 1,
      recorded: 500,
      replayed: 200,
    });
  });
});

describe('advantages of real rollouts', () => {
  const tasks = new Map([[task.spec.task_id, task]]);
  it('rewards are the recorded grades; GRPO per rollout in input order', () => {
    expect([A.reward, B.reward, C.reward]).toEqual([0.96, 0, 0.2]);
    const paper = computeAdvantages(tasks, [A, B, C], { ...D, method: 'grpo', convention: 'paper' }, clockOf);
    const sigma = Math.sqrt(((0.96 - 0.3867) ** 2 + 0.3867 ** 2 + (0.2 - 0.3867) ** 2) / 3);
    expect(paper.rollouts.map((x) => x.trajectory_id)).toEqual(['A', 'B', 'C']);
    expect(paper.rollouts[0]!.advantage).toBeCloseTo((0.96 - 0.38667) / sigma, 3);
    expect(paper.groups[0]).toMatchObject({ valid: true, no_signal: false, valid_rollouts: 3 });
    // The default is verl's arithmetic: torch.std (n − 1) + 1e-6 (numpy on [0.96, 0, 0.2]: 1.131968737036389).
    const r = computeAdvantages(tasks, [A, B, C], { ...D, method: 'grpo' }, clockOf);
    expect(r.rollouts.map((x) => x.advantage)).toEqual(
      [1.131968737036389, -0.76342077614082, -0.368547960895568].map((x) => expect.closeTo(x, 12)),
    );
  });
  it('GiGPO: per assistant turn, anchors shared by A and B get step advantages', () => {
    const r = computeAdvantages(tasks, [A, B, C], { ...D, method: 'gigpo', gamma: 1, convention: 'paper' }, clockOf);
    const [a, b, c] = r.rollouts;
    // A's fourth turn (after listing the open tickets, nothing changed yet) is C's second: same state, same
    // observation.
    expect(a!.steps!.map((s) => s.anchor_size)).toEqual([3, 2, 2, 2, 1, 1]);
    expect(c!.steps!.map((s) => s.anchor_size)).toEqual([3, 2]);
    expect(c!.steps![1]!.anchor).toBe(a!.steps![3]!.anchor);
    // γ = 1: every step's return is its episode reward; at the shared start A^S = GRPO of the rewards.
    expect(a!.steps![0]!.step_advantage).toBeCloseTo(a!.advantage!, 9);
    // A and B at turn 1: returns 0.96 and 0 → ±1.
    expect([a!.steps![1]!.step_advantage, b!.steps![1]!.step_advantage]).toEqual([1, -1]);
    expect(a!.steps![4]).toMatchObject({ step_advantage: 0, advantage: a!.advantage });
    expect(b!.replay).toEqual({ diverged: null, unmatched: 0 });
    // verl-agent: the episode μ and σ run over the steps (A 6 turns, B 4, C 2); the shared start is still GRPO of the
    // rewards, now with n − 1 and ε.
    const v = computeAdvantages(tasks, [A, B, C], { ...D, method: 'gigpo', gamma: 1 }, clockOf).rollouts;
    const rows = [...new Array(6).fill(0.96), 0, 0, 0, 0, 0.2, 0.2];
    const mu = rows.reduce((x, y) => x + y) / 12;
    const sd = Math.sqrt(rows.reduce((x, y) => x + (y - mu) ** 2, 0) / 11);
    expect(v[0]!.advantage).toBeCloseTo((0.96 - mu) / (sd + 1e-6), 12);
    expect(v[0]!.steps![0]!.step_advantage).toBeCloseTo(1.131968737036389, 12);
  });
  it("rewardSource 'grader' re-grades every rollout with the package's checks instead of its recorded reward", () => {
    const tampered = { ...C, trajectory_id: 'C2', reward: 0.9, valid: false, invalid_reason: 'ungraded' };
    const recorded = computeAdvantages(tasks, [A, tampered], { ...D, convention: 'paper' }, clockOf);
    expect(recorded.rollouts[1]).toMatchObject({ valid: false, invalid_reason: 'ungraded', advantage: null });
    const regraded = computeAdvantages(
      tasks,
      [A, tampered],
      { ...D, rewardSource: 'grader', convention: 'paper' },
      clockOf,
    );
    expect(regraded.rollouts.map((r) => [r.valid, r.grader?.score])).toEqual([
      [true, 0.96],
      [true, 0.2],
    ]);
    expect(regraded.rollouts[0]!.advantage).toBeCloseTo(1, 12);
  });

  it('GDPO uses completion, safety and robustness; missing scores make a rollout invalid', () => {
    const noScores = { ...C, trajectory_id: 'D', scores: null };
    const r = computeAdvantages(tasks, [A, B, C, noScores], { ...D, method: 'gdpo', convention: 'trl' }, clockOf);
    expect(r.rollouts[3]).toMatchObject({ valid: false, invalid_reason: 'missing_reward_dimensions', advantage: null });
    expect(r.groups[0]!.flat_dims).toEqual(['robustness']);
    expect(r.rollouts[1]!.advantage!).toBeLessThan(r.rollouts[2]!.advantage!); // B broke safety
    // verl has no GDPO: asking for its arithmetic is refused, naming the field.
    expect(() => computeAdvantages(tasks, [A, B], { ...D, method: 'gdpo', convention: 'verl' }, clockOf)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', issues: [expect.objectContaining({ path: ['convention'] })] }),
    );
  });
});

describe('trivial runs', () => {
  it('the hand-written task: nothing for an empty run or an echo; reads alone meet the "read the mail" check', () => {
    const r = trivialRuns(task, clockOf());
    expect(r.runs.map((x) => [x.run, x.completion, x.met])).toEqual([
      ['empty', 0, []],
      ['prompt_echo', 0, []],
      ['reads_only', 0.15, ['read_mail']],
    ]);
    expect(r.plan).toEqual({ writes: [3, 4], reads: [0, 1, 2] });
  });
  it('a check the request already satisfies is flagged, and so is a task an echo passes', () => {
    const leaky = handTask({
      checks: [{ id: 'says_vpn', kind: 'final_text', weight: 1, contains_all: ['VPN outage'] }],
    });
    const { preview } = previewAdvantages({ tasks: [leaky], rollouts: [], settings: D, clockOf });
    const codes = preview.flags.map((f) => [f.code, f.check_id ?? '']);
    expect(codes).toContainEqual(['trivial_check', 'says_vpn']);
    expect(codes).toContainEqual(['trivially_passable', '']);
    expect(preview.flags[0]!.level).toBe('warn');
  });
});

describe('the preview', () => {
  it('flags groups without signal, groups too small, invalid rollouts, constant checks and reward mismatches', () => {
    const other = handTask({ task_id: 'HW002_copy' });
    const A2 = { ...A, trajectory_id: 'A2' };
    const broken = { ...B, trajectory_id: 'X', valid: false, invalid_reason: 'infra_error' };
    const lone = rollout(other, planTurns(other), 'TK-3001 raised.', 'L');
    const tampered = { ...C, trajectory_id: 'C2', reward: 0.5 };
    const { preview } = previewAdvantages({
      tasks: [task, other],
      rollouts: [A, A2, broken, lone, tampered, C],
      settings: { ...D, method: 'drgrpo' },
      clockOf,
    });
    expect(preview.counts).toMatchObject({ rollouts: 6, valid_rollouts: 5, invalid_rollouts: { infra_error: 1 } });
    // The lone rollout of HW002 is a group of its own: valid, and in verl's convention (μ 0, σ 1) A = r.
    expect(preview.counts).toMatchObject({ groups: 2, valid_groups: 2, no_signal_groups: 0 });
    expect(preview.groups[1]).toMatchObject({ task_id: 'HW002_copy', valid: true, mean: 0, std: 1 });
    const codes = preview.flags.map((f) => `${f.code}:${f.task_id ?? ''}:${f.check_id ?? ''}`);
    expect(codes).toContain('singleton_group:HW002_copy:');
    expect(codes).toContain('invalid_rollouts::');
    expect(codes).toContain('reward_mismatch:HW001_vpn_outage_reply:');
    expect(codes.sort()).toEqual([
      'group_size::',
      'invalid_rollouts::',
      'reads_only_checks:HW001_vpn_outage_reply:',
      'reads_only_checks:HW002_copy:',
      'reward_mismatch:HW001_vpn_outage_reply:',
      'singleton_group:HW002_copy:',
    ]);
    // A group with no valid rollout at all is the one left out.
    const none = previewAdvantages({ tasks: [task], rollouts: [broken], settings: D, clockOf }).preview;
    expect(none.counts).toMatchObject({ groups: 1, valid_groups: 0 });
    expect(none.flags.find((f) => f.code === 'invalid_group')?.message).toBe(
      'no valid rollout of 1: excluded, no advantages',
    );
    expect(preview.flags.find((f) => f.code === 'group_size')?.message).toBe(
      '2 group(s) have 1, 4 valid rollout(s), not the 8 of the trainer settings (rollout.n): the trainer samples its ' +
        'own groups of 8',
    );
    const rates = preview.tasks[0]!.checks.find((c) => c.check_id === 'read_mail')!;
    expect(rates).toMatchObject({ met: 2, graded: 4 });
    const same = previewAdvantages({ tasks: [task], rollouts: [A, A2], settings: D, clockOf }).preview;
    expect(same.flags.map((f) => f.code)).toContain('no_signal');
    expect(same.flags.map((f) => f.code)).toContain('check_always_met');
    expect(same.advantages).toMatchObject({ nonzero: 0 });
    const idle = previewAdvantages({
      tasks: [task],
      rollouts: [C, { ...C, trajectory_id: 'C3' }],
      settings: D,
      clockOf,
    });
    expect(idle.preview.flags.filter((f) => f.code === 'check_never_met').map((f) => f.check_id)).toEqual([
      'read_mail',
      'ticket_high',
      'reply_drafted',
      'reported',
    ]);
  });
});
