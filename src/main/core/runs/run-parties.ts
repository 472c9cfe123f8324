import type { RunAgent } from '../../../shared/contract/runs.contract';
import type { ReadDb } from '../db/sqlite';
import { modelClientFor } from '../endpoints/client-for';
import type { KeyAccess } from '../endpoints/key-store';
import { endpointsRepo } from '../endpoints/endpoints.repo';
import type { Agent, UserSimulator } from '../agents/agent-types';
import type { ModelClientOptions } from '../agents/model-client';
import { modelAgent } from '../agents/model-agent';
import { modelUser } from '../agents/model-user';
import { referenceAgent, REFERENCE_AGENT_LABEL } from '../agents/reference-agent';
import { SCRIPTED_USER_LABEL, scriptedUser } from '../agents/scripted-user';
import { AppError } from '../lib/errors';

export type RunUserChoice = { kind: 'scripted' } | { kind: 'endpoint'; endpoint: string };

/** The labels a run row shows, known before any model is called (the handler checks the endpoints exist). */
export function partyLabels(db: ReadDb, agent: RunAgent, user: RunUserChoice) {
  const endpoint = (name: string, field: string) => {
    const e = endpointsRepo(db).get(name);
    if (!e)
      throw new AppError('INVALID_INPUT', `no endpoint named "${name}" (coworkenv endpoints list shows them)`, [
        { path: [field, 'endpoint'], message: 'unknown endpoint' },
      ]);
    return e;
  };
  const a =
    agent.kind === 'reference'
      ? { kind: 'reference' as const, label: REFERENCE_AGENT_LABEL, endpoint: null, model: null }
      : (() => {
          const e = endpoint(agent.endpoint, 'agent');
          return { kind: 'model' as const, label: `${e.name} (${e.model})`, endpoint: e.name, model: e.model };
        })();
  const ue = user.kind === 'endpoint' ? endpoint(user.endpoint, 'user') : null;
  const u = ue ? `simulated user: ${ue.name} (${ue.model})` : SCRIPTED_USER_LABEL;
  return { agent: a, user: u };
}

/**
 * The agent and the simulated user of a run, built in the job's worker: model clients get their
 * key here (never stored) and retry with backoff on 429/5xx/transport errors and timeouts.
 */
export function runParties(
  db: ReadDb,
  keys: KeyAccess,
  o: { agent: RunAgent; user: RunUserChoice; maxAttempts: number },
): { agent: Agent; user: UserSimulator } {
  const client = (name: string) => {
    const e = endpointsRepo(db).get(name);
    if (!e) throw new Error(`the endpoint "${name}" was removed after the run started`);
    const opts: ModelClientOptions = { retry: { maxAttempts: o.maxAttempts, retryTimeouts: true } };
    return modelClientFor(e, keys, opts);
  };
  const agent =
    o.agent.kind === 'reference'
      ? referenceAgent({
          seed: o.agent.seed,
          clean: o.agent.clean,
          ...(o.agent.perturbations ? { perturbations: o.agent.perturbations } : {}),
        })
      : modelAgent(client(o.agent.endpoint), {
          temperature: o.agent.temperature,
          ...(o.agent.maxTokens !== undefined ? { maxTokens: o.agent.maxTokens } : {}),
        });
  const user = o.user.kind === 'scripted' ? scriptedUser() : modelUser(client(o.user.endpoint));
  return { agent, user };
}
