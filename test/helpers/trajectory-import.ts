import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../../src/main/core';
import type { Input } from '../../src/shared/contract';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import type { ImportResult, TrajectoryRow } from '../../src/shared/contract/trajectories.contract';
import { ok } from './call';
import { SHARED } from './goldens';

export const TRAJ_CORPUS = path.join(SHARED, 'corpora/trajectories');
export const TAU_BENCH = path.join(TRAJ_CORPUS, 'tau-bench/gpt-4o-airline.json');
export const TAU2_RESULTS = path.join(TRAJ_CORPUS, 'tau2-bench/gpt-4.1_airline_default_gpt-4.1_1trials.json');
export const TAU2_SFT = path.join(TRAJ_CORPUS, 'tau2-bench/train_sft-v1-small.jsonl');
export const hasTrajCorpus = [TAU_BENCH, TAU2_RESULTS, TAU2_SFT].every((f) => fs.existsSync(f));

/** Starts trajectories.import and waits for it; answers the job's final state and result. */
export async function importFiles(core: Core, input: Input<'trajectories.import'>) {
  const { jobId } = await ok(core, 'trajectories.import', input);
  const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 300_000 });
  if (job.state !== 'done') throw new Error(`import ${job.state}: ${job.error}`);
  return job.result as ImportResult;
}

/** Every stored row, in id order. */
export async function allRows(
  core: Core,
  filters: Input<'trajectories.list'>['filters'] = [],
): Promise<TrajectoryRow[]> {
  const rows: TrajectoryRow[] = [];
  for (let offset = 0; ; offset += 5000) {
    const page = await ok(core, 'trajectories.list', { offset, limit: 5000, filters });
    rows.push(...page.rows);
    if (rows.length >= page.total) return rows;
  }
}

/**
 * What breaks formats.md §1.7's pairing rules in a trajectory: a call id used twice, a tool message
 * that does not answer an unanswered call of the nearest preceding message that made calls, or
 * that carries another tool's name.
 */
export function pairingProblems(t: Trajectory): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let open = new Map<string, string>();
  t.messages.forEach((m, i) => {
    const calls = m.role === 'assistant' || m.role === 'user' ? (m.tool_calls ?? []) : [];
    if (calls.length) {
      open = new Map();
      for (const c of calls) {
        if (seen.has(c.id)) problems.push(`message ${i}: call id ${c.id} used twice`);
        seen.add(c.id);
        open.set(c.id, c.function.name);
        if (
          c.parsed_arguments &&
          JSON.stringify(c.parsed_arguments) !== JSON.stringify(JSON.parse(c.function.arguments))
        )
          problems.push(`message ${i}: parsed_arguments differ from arguments`);
      }
    }
    if (m.role === 'tool') {
      const name = open.get(m.tool_call_id);
      if (name === undefined) problems.push(`message ${i}: result ${m.tool_call_id} answers no open call`);
      else if (name !== m.name) problems.push(`message ${i}: result named ${m.name}, call is ${name}`);
      open.delete(m.tool_call_id);
    }
  });
  return problems;
}
