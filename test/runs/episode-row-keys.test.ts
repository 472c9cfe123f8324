import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/main/core/agents/agent-loop';
import { referenceAgent } from '../../src/main/core/agents/reference-agent';
import { scriptedUser } from '../../src/main/core/agents/scripted-user';
import { lineageWriter } from '../../src/main/core/generation/llm/lineage.repo';
import { registerKnownKey } from '../../src/main/core/lib/secrets/known-keys';
import { episodeRow } from '../../src/main/core/runs/episode-row';
import { generatedTasks } from '../helpers/generated-tasks';

/**
 * The writers of model-derived text drop configured keys themselves (issue 16), whatever path the
 * text took: the model client already scrubs answers, but a trajectory row and a lineage round are
 * written without one here.
 */
const KEY = 'Pd8writerSideKeyNoPattern2Jx';

describe('writers of model-derived text', () => {
  registerKnownKey(KEY);

  it('a run trajectory row: body, content hash, search text and error', async () => {
    const spec = generatedTasks(1)[0]!;
    const e = await runEpisode({ spec, fixtures: [], agent: referenceAgent({}), user: scriptedUser(), trial: 0 });
    const last = e.trajectory.messages.at(-1)!;
    if (last.role === 'assistant') last.content = `final answer, key ${KEY}`;
    const row = episodeRow(
      { ...e, error: `HTTP 500: echo ${KEY}` },
      { runId: 1, collection: 'c', trial: 0, agentLabel: 'a' },
    );
    expect(String(row.trajectoryJson)).toContain('[REDACTED:endpoint_key]');
    expect(JSON.stringify(row)).not.toContain(KEY);
  });

  it('a generation lineage round: prompt, answer and error', () => {
    const args: unknown[][] = [];
    const db = { prepare: () => ({ run: (...a: unknown[]) => void args.push(a) }) };
    lineageWriter(db as never).save({
      taskId: 't1',
      status: 'discarded',
      rounds: [
        {
          round: 1,
          kind: 'ask',
          prompt: [{ role: 'user', content: `use ${KEY}` }],
          answer: `answered with ${KEY}`,
          error: `refused ${KEY}`,
          verdicts: null,
          diff: '',
          endpoint: 'e',
          model: 'm',
          prompt_tokens: null,
          completion_tokens: null,
          latency_ms: 1,
          attempts: 1,
          created_at: 'now',
        },
      ],
    } as never);
    expect(args.length).toBe(2);
    expect(JSON.stringify(args)).not.toContain(KEY);
  });
});
