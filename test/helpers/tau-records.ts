import fs from 'node:fs';
import path from 'node:path';

/**
 * Small τ-bench and τ²-bench files written inline (formats.md §2.1, §2.2), so tests of task identity,
 * duplicates and warnings always run, corpus or not. Rewards are 0/1 as the benchmarks write them.
 */

export type TauRecord = { task: number | string; trial: number; reward: number; text?: string };

const policy = (domain: string) => `# ${domain[0]!.toUpperCase()}${domain.slice(1)} Agent Policy\n\nBe helpful.`;

/** A τ-bench (v1) results file: one JSON array; the domain is only in the system policy's title. */
export function writeTauBench(dir: string, name: string, domain: string, records: TauRecord[]): string {
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  const rows = records.map((r) => ({
    task_id: r.task,
    trial: r.trial,
    reward: r.reward,
    info: { task: { user_id: 'u1', instruction: 'book a flight' }, source: 'user' },
    traj: [
      { role: 'system', content: policy(domain) },
      { role: 'user', content: `Hi, task ${r.task} (${domain}).` },
      { role: 'assistant', content: r.text ?? `Done with ${r.task}, trial ${r.trial}.` },
      { role: 'user', content: '###STOP###' },
    ],
  }));
  fs.writeFileSync(file, JSON.stringify(rows));
  return file;
}

/** A τ²-bench results file: {info, tasks, simulations}; the domain and the agent's model are in the header. */
export function writeTau2(
  dir: string,
  name: string,
  o: { domain: string; model: string; seed?: number },
  records: TauRecord[],
): string {
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  const doc = {
    timestamp: '2026-01-01T00:00:00',
    info: {
      num_trials: 1,
      seed: o.seed ?? 300,
      agent_info: { implementation: 'llm_agent', llm: o.model },
      user_info: { implementation: 'user_simulator', llm: 'sim' },
      environment_info: { domain_name: o.domain, policy: policy(o.domain), tool_defs: null },
    },
    tasks: [...new Set(records.map((r) => String(r.task)))].map((id) => ({ id })),
    simulations: records.map((r, i) => ({
      id: `sim-${o.domain}-${o.model}-${o.seed ?? 300}-${i}`,
      task_id: String(r.task),
      trial: r.trial,
      termination_reason: 'user_stop',
      reward_info: { reward: r.reward },
      messages: [
        { role: 'assistant', content: 'Hi! How can I help you today?' },
        { role: 'user', content: `Task ${r.task} please (${o.domain}).` },
        { role: 'assistant', content: r.text ?? `Done with ${r.task}, trial ${r.trial}.` },
        { role: 'user', content: '###STOP###' },
      ],
    })),
  };
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** A messages-JSONL row (formats.md §2.5) that every SFT filter lets through with a permissive pool. */
export function messagesRow(o: { task: string; trial: number; reward: number; model?: string; text?: string }) {
  return {
    task_id: o.task,
    trial: o.trial,
    reward: o.reward,
    ...(o.model ? { model: o.model } : {}),
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: `Please do ${o.task}.` },
      { role: 'assistant', content: o.text ?? `Doing ${o.task} (${o.model ?? 'model'}).` },
      { role: 'user', content: 'Thanks, and then?' },
      { role: 'assistant', content: 'Then it is done.' },
    ],
  };
}

export function writeJsonl(dir: string, name: string, rows: unknown[]): string {
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}
