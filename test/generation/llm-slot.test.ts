import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/main/core/agents/model-client';
import { generateWithLlm } from '../../src/main/core/generation/llm/generate-llm';
import type { LlmSlot } from '../../src/main/core/generation/llm/normalise';
import { chat, type Script, startScriptedOpenAI, type ScriptedServer } from '../helpers/scripted-openai';
import { answer, SLOT } from './llm-fixtures';

/**
 * Issue 18 item 10: a generated task is held to its slot. The shipped example is a gmail + helpdesk
 * cross-service task with prohibited rules and no simulated user; before slot_conformance it was
 * accepted for any slot the model was asked to fill.
 */
const KEY = 'sk-slot-aa11bb22cc33dd44ee55ff66';
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function run(slot: LlmSlot, script: Script) {
  const srv = await startScriptedOpenAI({ script, requireKey: KEY });
  servers.push(srv);
  const client = createModelClient(
    { name: 'gen-ep', baseUrl: srv.baseUrl, model: 'test-model', apiKey: KEY, timeoutMs: 5000 },
    { retry: { baseDelayMs: 10 } },
  );
  const report = await generateWithLlm(slot, { client, seed: 42, count: 1, now: () => new Date('2026-03-01') });
  const feedback = srv.chatRequests()[1]?.body?.messages.at(-1)?.content as string | undefined;
  return { report, feedback };
}

const slotVerdict = (r: Awaited<ReturnType<typeof run>>['report'], round: number) =>
  r.outcomes[0]!.rounds[round]!.verdicts!.find((v) => v.validator === 'slot_conformance')!;

const USER = {
  enabled: true,
  persona: 'the IT lead, terse',
  hidden_facts: ['the VPN ticket is TK-3001'],
  max_rounds: 2,
  system_prompt_suffix: '',
};

describe('LLM candidates honour their slot', () => {
  it('a gmail + helpdesk task for a calendar / kb / crm slot: repaired once, still off-slot, discarded', async () => {
    const slot: LlmSlot = { ...SLOT, services: ['calendar', 'kb', 'crm'] };
    const off = chat(JSON.stringify(answer()));
    const { report, feedback } = await run(slot, [off, off]);
    const v1 = slotVerdict(report, 0);
    expect(v1.status).toBe('fail');
    expect(v1.messages[0]).toEqual({
      field: 'services',
      message: expect.stringContaining(
        "the slot's services are calendar, kb, crm, the task's are gmail, helpdesk; missing calendar, kb, crm; " +
          'not in the slot gmail, helpdesk',
      ),
    });
    // The one guided retry is told what was off-slot…
    expect(feedback).toContain("- slot_conformance · services: the slot's services are calendar, kb, crm");
    // …and a retry that ignores it is discarded with the reason kept, never counted under the slot.
    expect(report.outcomes[0]).toMatchObject({ status: 'discarded', reasonKind: 'invalid_after_repair' });
    expect(report.outcomes[0]!.reason).toContain('slot_conformance (the slot');
    expect(slotVerdict(report, 1).status).toBe('fail');
    expect(report.tasks).toEqual([]);
    expect(report.counts).toMatchObject({ valid_first: 0, repaired: 0, discarded: 1 });
  });

  it('a safety slot: a task without a prohibited rule fails (field prohibited); with one it is accepted', async () => {
    const slot: LlmSlot = { ...SLOT, scenario: 'safety' };
    const bare = chat(JSON.stringify(answer({ prohibited: [] })));
    const { report } = await run(slot, [bare, bare]);
    expect(slotVerdict(report, 0)).toMatchObject({
      status: 'fail',
      messages: [{ field: 'prohibited', message: expect.stringContaining('the slot is a safety scenario') }],
    });
    expect(report.outcomes[0]!.status).toBe('discarded');

    const fixed = await run(slot, [bare, chat(JSON.stringify(answer()))]);
    expect(fixed.report.outcomes[0]!.status).toBe('repaired');
    expect(slotVerdict(fixed.report, 1).status).toBe('pass');
  });

  it('a multi_turn slot: a task without a simulated user fails (user_agent.enabled); with one it passes', async () => {
    const slot: LlmSlot = { ...SLOT, scenario: 'multi_turn' };
    const alone = chat(JSON.stringify(answer()));
    const { report } = await run(slot, [
      alone,
      chat(JSON.stringify(answer({ user_agent: { ...USER, enabled: false } }))),
    ]);
    expect(slotVerdict(report, 0).messages).toEqual([
      {
        field: 'user_agent.enabled',
        message: expect.stringContaining('has no simulated user (user_agent.enabled is absent)'),
      },
    ]);
    expect(slotVerdict(report, 1).messages[0]!.message).toContain('user_agent.enabled is false');
    expect(report.outcomes[0]!.status).toBe('discarded');
    expect(report.tasks).toEqual([]);

    const ok = await run(slot, [chat(JSON.stringify(answer({ user_agent: USER })))]);
    expect(ok.report.outcomes[0]!.status).toBe('valid');
    expect(slotVerdict(ok.report, 0)).toEqual({ validator: 'slot_conformance', status: 'pass', messages: [] });
  });

  it('the conforming example for its own slot passes slot_conformance first time', async () => {
    const { report } = await run(SLOT, [chat(JSON.stringify(answer()))]);
    expect(report.outcomes[0]!.status).toBe('valid');
    expect(slotVerdict(report, 0).status).toBe('pass');
  });
});
