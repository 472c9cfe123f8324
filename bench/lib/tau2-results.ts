/**
 * A large τ²-bench results file built from the corpus one (../shared/corpora/trajectories): its
 * header (timestamp, info, tasks) kept but for `tool_defs`, null there (formats.md §2.2 quirk 6), which
 * gets the airline tool set of the corpus's τ² SFT file, so the records export instead of being refused
 * for missing schemas; its 20 simulations replicated with new ids and a new
 * trial per copy (so no two share a (task, trial)) until the file reaches `targetBytes`. One line of
 * compact JSON, as `json.dumps` without indent writes it (the layout sniffing once refused when the
 * header passed 1 MB). Written streaming.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TRAJ_CORPUS } from './trajectory-corpus';

export const TAU2_RESULTS = path.join(TRAJ_CORPUS, 'tau2-bench/gpt-4.1_airline_default_gpt-4.1_1trials.json');
const TAU2_SFT = path.join(TRAJ_CORPUS, 'tau2-bench/train_sft-v1-small.jsonl');
export const hasTau2Corpus = [TAU2_RESULTS, TAU2_SFT].every((f) => fs.existsSync(f));

type Tool = { function: { name: string } };

/** The airline domain's OpenAI tool list, as the τ² SFT file carries it. */
function airlineTools(): Tool[] {
  for (const line of fs.readFileSync(TAU2_SFT, 'utf8').split('\n')) {
    const tools = line ? (JSON.parse(line) as { tools?: Tool[] }).tools : undefined;
    if (tools?.some((t) => t.function.name === 'get_reservation_details')) return tools;
  }
  throw new Error(`no airline tool set in ${TAU2_SFT}`);
}

export function writeTau2Results(file: string, targetBytes: number): { bytes: number; simulations: number } {
  const src = JSON.parse(fs.readFileSync(TAU2_RESULTS, 'utf8')) as Record<string, unknown> & {
    simulations: Record<string, unknown>[];
  };
  const { simulations, ...header } = src;
  const info = header.info as { environment_info: Record<string, unknown> };
  info.environment_info.tool_defs = airlineTools();
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  const write = (s: string) => {
    bytes += fs.writeSync(fd, s);
  };
  write(`${JSON.stringify(header).slice(0, -1)},"simulations":[`);
  let n = 0;
  let chunk: string[] = [];
  for (let cycle = 0; bytes < targetBytes; cycle++) {
    for (const s of simulations) {
      chunk.push(`${n ? ',' : ''}${JSON.stringify({ ...s, id: `${s.id}-${cycle}`, trial: cycle, seed: cycle })}`);
      n++;
    }
    write(chunk.join(''));
    chunk = [];
  }
  write(']}');
  fs.closeSync(fd);
  return { bytes, simulations: n };
}
