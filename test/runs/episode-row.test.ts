import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/main/core/agents/agent-loop';
import { referenceAgent } from '../../src/main/core/agents/reference-agent';
import { scriptedUser } from '../../src/main/core/agents/scripted-user';
import { episodeRow, trajectoryJson, withContentHash } from '../../src/main/core/runs/episode-row';
import { dumpsPy, type PyValue } from '../../src/main/core/py/pyjson';
import { withoutUndefined } from '../../src/main/core/trajectories/load-trajectory';
import { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { generatedTasks } from '../helpers/generated-tasks';

describe('the stored JSON of a run trajectory', () => {
  it('splices the shared tools and system prompt: byte-identical to writing it whole, and reads back', async () => {
    const agent = referenceAgent({ perturbations: { wrong_argument: 0.3 } });
    for (const spec of generatedTasks(10))
      for (const trial of [0, 1]) {
        const e = await runEpisode({ spec, fixtures: [], agent, user: scriptedUser(), trial });
        const whole = dumpsPy(withoutUndefined(e.trajectory as unknown as PyValue), { itemSep: ',', keySep: ':' });
        expect(trajectoryJson(e.trajectory)).toBe(whole);
        const row = episodeRow(e, { runId: 1, collection: 'c', trial, agentLabel: agent.label });
        expect(Trajectory.parse(JSON.parse(row.trajectoryJson as string)).messages).toHaveLength(
          e.trajectory.messages.length,
        );
        expect(row).toMatchObject({ agent: 'reference agent', model: '', source: 'run', valid: true, trial });
        // A helper thread's row: the same JSON as UTF-8 bytes, hashed by the committing thread to the same hash.
        const moved = episodeRow(e, { runId: 1, collection: 'c', trial, agentLabel: agent.label, forTransfer: true });
        expect(moved.contentHash).toBe('');
        expect(Buffer.from(moved.trajectoryJson as Uint8Array).toString('utf8')).toBe(row.trajectoryJson);
        expect(withContentHash(moved).contentHash).toBe(row.contentHash);
      }
  });
});
