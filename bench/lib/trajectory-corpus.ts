/**
 * A messages JSONL of `n` trajectories built from the shapes of the shared trajectory corpus
 * (../shared/corpora/trajectories): τ-bench records (their `traj`), τ²-bench simulations turned into
 * OpenAI messages (flat calls wrapped, their raw argument strings, tool results by id, usage), and
 * the τ² SFT rows — each with `task_id`, `trial` and `reward` (formats.md §2.5), cycled so every
 * (task, trial) is distinct. Written streaming; answers the file's size and the record count.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './harness';

export const TRAJ_CORPUS = path.resolve(REPO_ROOT, '../shared/corpora/trajectories');
const TAU = path.join(TRAJ_CORPUS, 'tau-bench/gpt-4o-airline.json');
const TAU2 = path.join(TRAJ_CORPUS, 'tau2-bench/gpt-4.1_airline_default_gpt-4.1_1trials.json');
const SFT = path.join(TRAJ_CORPUS, 'tau2-bench/train_sft-v1-small.jsonl');
export const hasCorpus = [TAU, TAU2, SFT].every((f) => fs.existsSync(f));

// biome-ignore lint/suspicious/noExplicitAny: corpus JSON of three formats, read loosely to build rows
type Json = Record<string, any>;

function tau2AsMessages(sim: Json, policy: string): Json[] {
  const out: Json[] = [{ role: 'system', content: policy }];
  for (const m of sim.messages as Json[]) {
    if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.id, content: m.content ?? '' });
    else if (m.role === 'assistant' && m.tool_calls?.length) {
      const raw = new Map<string, string>(
        (m.raw_data?.message?.tool_calls ?? []).map((c: Json) => [c.id, c.function.arguments]),
      );
      out.push({
        role: 'assistant',
        content: m.content,
        tool_calls: m.tool_calls.map((c: Json) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: raw.get(c.id) ?? JSON.stringify(c.arguments) },
        })),
        ...(m.usage ? { usage: m.usage } : {}),
      });
    } else out.push({ role: m.role, content: m.content, ...(m.usage ? { usage: m.usage } : {}) });
  }
  return out;
}

/** The corpus's trajectories as messages rows, without ids. */
function baseRows(): { reward: number | null; messages: Json[]; tools?: Json[]; task: string; trial: number }[] {
  const tau = JSON.parse(fs.readFileSync(TAU, 'utf8')) as Json[];
  const tau2 = JSON.parse(fs.readFileSync(TAU2, 'utf8')) as Json;
  const sft = fs
    .readFileSync(SFT, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);
  const policy = tau2.info.environment_info.policy as string;
  return [
    ...tau.map((r) => ({
      reward: r.reward as number,
      messages: r.traj as Json[],
      task: `tau-${r.task_id}`,
      trial: r.trial as number,
    })),
    ...(tau2.simulations as Json[]).map((s) => ({
      reward: s.reward_info.reward as number,
      messages: tau2AsMessages(s, policy),
      task: `tau2-${s.task_id}`,
      trial: s.trial as number,
    })),
    ...sft.map((r, i) => ({
      reward: 1,
      messages: r.messages as Json[],
      tools: r.tools as Json[],
      task: `sft-${i}`,
      trial: 0,
    })),
  ];
}

export function writeTrajectoryJsonl(file: string, n: number): { bytes: number; records: number } {
  const base = baseRows();
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  let chunk: string[] = [];
  const flush = () => {
    const b = Buffer.from(chunk.join(''));
    fs.writeSync(fd, b);
    bytes += b.length;
    chunk = [];
  };
  for (let i = 0; i < n; i++) {
    const { task: _, trial: __, ...r } = base[i % base.length]!;
    const cycle = Math.floor(i / base.length);
    chunk.push(
      `${JSON.stringify({
        task_id: `task-${i % base.length}-${cycle % 100}`,
        trial: Math.floor(cycle / 100),
        ...r,
      })}\n`,
    );
    if (chunk.length >= 500) flush();
  }
  flush();
  fs.closeSync(fd);
  return { bytes, records: n };
}

/**
 * The corpus as recorded: one messages JSONL line per trajectory with its own task id and trial
 * (τ-bench: 50 tasks × 4 trials, rewards 0/1, most tasks failed every trial; τ²-bench: 20 tasks, one
 * trial each; the τ² SFT rows: reward 1). Answers the record count.
 */
export function writeCorpusAsRecorded(file: string): number {
  const rows = baseRows().map(({ task, trial, ...r }) => `${JSON.stringify({ task_id: task, trial, ...r })}\n`);
  fs.writeFileSync(file, rows.join(''));
  return rows.length;
}
