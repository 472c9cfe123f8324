import fs from 'node:fs';
import { TAU2_FILE, TAU_FILE } from './sft-corpus';

/**
 * Tool calls as the corpus files hold them, read straight from the files (not through our importer),
 * and as an exported row of any dialect holds them: name and arguments object, in order.
 */
export type CallSig = { name: string; args: unknown };
type Obj = Record<string, unknown>;

/** τ-bench (v1): the assistant's calls per record, keyed `<task_id>/<trial>`. */
export function tauBenchCalls(): Map<string, CallSig[]> {
  const records = JSON.parse(fs.readFileSync(TAU_FILE, 'utf8')) as { task_id: number; trial: number; traj: Obj[] }[];
  return new Map(
    records.map((r) => [
      `${r.task_id}/${r.trial}`,
      r.traj.flatMap((m) =>
        m.role === 'assistant'
          ? ((m.tool_calls as { function: { name: string; arguments: string } }[] | null) ?? []).map((c) => ({
              name: c.function.name,
              args: JSON.parse(c.function.arguments) as unknown,
            }))
          : [],
      ),
    ]),
  );
}

/** τ²-bench results: the agent's calls per simulation, keyed `<task_id>/<trial>` (user-side calls left out). */
export function tau2Calls(): Map<string, CallSig[]> {
  const d = JSON.parse(fs.readFileSync(TAU2_FILE, 'utf8')) as {
    simulations: { task_id: string; trial: number; messages: Obj[] }[];
  };
  return new Map(
    d.simulations.map((s) => [
      `${s.task_id}/${s.trial}`,
      s.messages.flatMap((m) =>
        m.role === 'assistant'
          ? ((m.tool_calls as { name: string; arguments: unknown; requestor?: string }[] | null) ?? [])
              .filter((c) => c.requestor !== 'user')
              .map((c) => ({ name: c.name, args: c.arguments }))
          : [],
      ),
    ]),
  );
}

const parsed = (a: unknown) => (typeof a === 'string' ? (JSON.parse(a) as unknown) : a);

/** The calls of one exported row: OpenAI-shaped messages (TRL, OpenAI, verl) or sharegpt function_call turns. */
export function rowCalls(row: Obj): CallSig[] {
  if (Array.isArray(row.conversations))
    return (row.conversations as { from: string; value: string }[])
      .filter((t) => t.from === 'function_call')
      .flatMap((t) => [JSON.parse(t.value) as { name: string; arguments: unknown }].flat())
      .map((c) => ({ name: c.name, args: c.arguments }));
  return (row.messages as { tool_calls?: { function: { name: string; arguments: unknown } }[] | null }[]).flatMap((m) =>
    (m.tool_calls ?? []).map((c) => ({ name: c.function.name, args: parsed(c.function.arguments) })),
  );
}
