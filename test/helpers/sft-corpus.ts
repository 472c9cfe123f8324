import fs from 'node:fs';
import path from 'node:path';
import type { Message, ToolCall, Trajectory } from '../../src/shared/contract/entities/trajectory';
import { parsePyJson, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import type { SftRecord } from '../../src/main/core/export/sft';
import { readClawTask } from '../../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../../src/main/core/tasks/claw-eval/task-files';
import { synthTrajectory } from './claw-traces';
import { CLAW_ROOT, goldenTaskIds, SHARED } from './goldens';

/**
 * Canonical Trajectories built from the real corpora (formats.md §2.1–§2.3), for the SFT export
 * tests: a small converter per source that follows the import rules the reference gives (ids
 * made unique, results paired by position, control tokens, raw argument strings kept).
 */
export const TRAJ = path.join(SHARED, 'corpora/trajectories');
export const TAU_FILE = path.join(TRAJ, 'tau-bench/gpt-4o-airline.json');
export const TAU2_FILE = path.join(TRAJ, 'tau2-bench/gpt-4.1_airline_default_gpt-4.1_1trials.json');
export const TAU2_SFT_FILE = path.join(TRAJ, 'tau2-bench/train_sft-v1-small.jsonl');
export const hasTauCorpora = [TAU_FILE, TAU2_FILE, TAU2_SFT_FILE].every((f) => fs.existsSync(f));

type RawMsg = Record<string, unknown> & { role: string; content?: string | null };
type RawCall = { id: string; function: { name: string; arguments: string } };

const control = (s: string) =>
  s.includes('###STOP###')
    ? 'stop'
    : s.includes('###TRANSFER###')
      ? 'transfer'
      : s.includes('###OUT-OF-SCOPE###')
        ? 'out_of_scope'
        : null;

function call(id: string, name: string, raw: string, origin: ToolCall['arguments_origin']): ToolCall {
  let parsed: PyObject | null = null;
  try {
    const v = parsePyJson(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) parsed = v as PyObject;
  } catch {
    parsed = null;
  }
  return {
    id,
    type: 'function',
    function: { name, arguments: raw },
    parsed_arguments: parsed,
    arguments_origin: origin,
    requestor: 'assistant',
  };
}

const base = (id: string, taskId: string, format: Trajectory['source']['format'], file: string) => ({
  trajectory_id: id,
  task_id: taskId,
  model: 'corpus',
  source: { format, file: path.relative(SHARED, file) },
  trace: null,
  dispatches: [],
  audits: [],
  media: [],
  compactions: [],
  end: null,
  gradings: [],
  scores: null,
  valid: true,
  invalid_reason: null,
  metadata: {},
});

/** The airline tool schemas carried by the τ² SFT file (τ-bench ships none, §2.1 quirk 6). */
export function airlineTools(): PyObject[] {
  const byName = new Map<string, PyObject>();
  for (const line of fs.readFileSync(TAU2_SFT_FILE, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = parsePyJson(line) as { tools: { function: { name: string } }[] };
    if (!row.tools.some((t) => t.function.name === 'book_reservation')) continue;
    for (const t of row.tools) byName.set(t.function.name, t as unknown as PyObject);
  }
  return [...byName.values()];
}

/** τ-bench's `think` pseudo-tool (§2.1 quirk 2), which the τ² airline set no longer has. */
export const THINK_TOOL: PyObject = {
  type: 'function',
  function: {
    name: 'think',
    description: 'Use the tool to think about something. It will not obtain new information or change the database.',
    parameters: {
      type: 'object',
      properties: { thought: { type: 'string', description: 'A thought to think about.' } },
      required: ['thought'],
    },
  },
};

/**
 * τ-bench v1 (§2.1): 200 records (taskId namespaced by benchmark, so τ and τ² task "2" differ); duplicate call ids get
 * #2, #3…; tool results paired by position.
 */
export function tauBenchTrajectories(): { t: Trajectory; taskId: string; trial: number; reward: number }[] {
  const raw = JSON.parse(fs.readFileSync(TAU_FILE, 'utf8')) as {
    task_id: number;
    trial: number;
    reward: number;
    traj: RawMsg[];
  }[];
  const tools = [...airlineTools(), THINK_TOOL];
  return raw.map((r) => {
    const used = new Map<string, number>();
    let lastCalls: ToolCall[] = [];
    let k = 0;
    const messages: Message[] = r.traj.map((m): Message => {
      if (m.role === 'system') return { role: 'system', content: m.content ?? '' };
      if (m.role === 'user') {
        const c = m.content ?? '';
        return { role: 'user', content: c, origin: 'simulated_user', control: control(c) };
      }
      if (m.role === 'assistant') {
        lastCalls = ((m.tool_calls as RawCall[] | undefined) ?? []).map((c) => {
          const n = (used.get(c.id) ?? 0) + 1;
          used.set(c.id, n);
          return call(n === 1 ? c.id : `${c.id}#${n}`, c.function.name, c.function.arguments, 'verbatim');
        });
        k = 0;
        return { role: 'assistant', content: m.content ?? null, reasoning: null, tool_calls: lastCalls };
      }
      const c = lastCalls[k++]!;
      const content = m.content ?? '';
      return {
        role: 'tool',
        tool_call_id: c.id,
        name: c.function.name,
        content,
        is_error: content.startsWith('Error: '),
      };
    });
    const id = `tau-bench/airline/${r.task_id}/${r.trial}`;
    const t: Trajectory = {
      ...base(id, String(r.task_id), 'tau-bench-v1', TAU_FILE),
      tools,
      messages,
      reward: r.reward,
      termination: null,
    };
    return { t, taskId: `tau-bench/airline/${r.task_id}`, trial: r.trial, reward: r.reward };
  });
}

/** τ²-bench results (§2.2): flat calls wrapped, raw strings from raw_data, results by `id`, policy as system prompt. */
export function tau2Trajectories(): { t: Trajectory; taskId: string; trial: number; reward: number }[] {
  const d = JSON.parse(fs.readFileSync(TAU2_FILE, 'utf8')) as {
    info: { environment_info: { policy: string } };
    simulations: { task_id: string; trial: number; reward_info: { reward: number }; messages: RawMsg[] }[];
  };
  const sftSystem = (parsePyJson(fs.readFileSync(TAU2_SFT_FILE, 'utf8').split('\n')[0]!) as { messages: RawMsg[] })
    .messages[0]!.content as string;
  const instructions = /<instructions>[\s\S]*?<\/instructions>/.exec(sftSystem)![0];
  const system = `${instructions}\n<policy>\n${d.info.environment_info.policy}\n</policy>`;
  const tools = airlineTools();
  return d.simulations.map((s) => {
    const names = new Map<string, string>();
    const messages: Message[] = [{ role: 'system', content: system }];
    for (const m of s.messages) {
      if (m.role === 'tool') {
        const id = m.id as string;
        messages.push({
          role: 'tool',
          tool_call_id: id,
          name: names.get(id)!,
          content: m.content ?? '',
          is_error: m.error === true,
        });
        continue;
      }
      if (m.role === 'user') {
        const c = m.content ?? '';
        messages.push({ role: 'user', content: c, origin: 'simulated_user', control: control(c) });
        continue;
      }
      const rawCalls = ((m.raw_data as { message?: { tool_calls?: RawCall[] } } | null)?.message?.tool_calls ??
        []) as RawCall[];
      const calls = ((m.tool_calls as { id: string; name: string; arguments: PyValue }[] | null) ?? []).map((c) => {
        names.set(c.id, c.name);
        const raw = rawCalls.find((r) => r.id === c.id)?.function.arguments;
        return call(c.id, c.name, raw ?? JSON.stringify(c.arguments), raw ? 'verbatim' : 'serialized');
      });
      messages.push({ role: 'assistant', content: m.content ?? null, reasoning: null, tool_calls: calls });
    }
    const id = `tau2-bench/airline/${s.task_id}/${s.trial}`;
    const t: Trajectory = {
      ...base(id, s.task_id, 'tau2-results', TAU2_FILE),
      tools,
      messages,
      reward: s.reward_info.reward,
      termination: 'user_stop',
    };
    return { t, taskId: `tau2-bench/airline/${s.task_id}`, trial: s.trial, reward: s.reward_info.reward };
  });
}

/** The τ² OpenAI-FT file (§2.3): unscored rows; a missing content becomes null, tool names filled from the calls. */
export function tau2SftRows(): { t: Trajectory; line: string }[] {
  const lines = fs
    .readFileSync(TAU2_SFT_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  return lines.map((line, i) => {
    const row = parsePyJson(line) as { messages: RawMsg[]; tools: PyObject[]; parallel_tool_calls?: boolean };
    const names = new Map<string, string>();
    const messages = row.messages.map((m): Message => {
      if (m.role === 'system') return { role: 'system', content: m.content ?? '' };
      if (m.role === 'user') return { role: 'user', content: m.content ?? '', origin: 'simulated_user', control: null };
      if (m.role === 'tool') {
        const id = m.tool_call_id as string;
        return { role: 'tool', tool_call_id: id, name: names.get(id)!, content: m.content ?? '', is_error: false };
      }
      const calls = ((m.tool_calls as RawCall[] | undefined) ?? []).map((c) => {
        names.set(c.id, c.function.name);
        return call(c.id, c.function.name, c.function.arguments, 'verbatim');
      });
      return { role: 'assistant', content: m.content ?? null, reasoning: null, tool_calls: calls };
    });
    const id = `openai-ft/train_sft-v1-small/${i}`;
    return {
      t: {
        ...base(id, `sft-${i}`, 'openai-ft-jsonl', TAU2_SFT_FILE),
        metadata: row.parallel_tool_calls === undefined ? {} : { parallel_tool_calls: row.parallel_tool_calls },
        tools: row.tools,
        messages,
        reward: null,
        termination: null,
      },
      line,
    };
  });
}

/** Claw-Eval runs synthesised from the conformance goldens, with the task's tools in wrapper form. */
export function clawTrajectories(): Trajectory[] {
  return goldenTaskIds().map((id) => {
    const t = synthTrajectory(id);
    const spec = readClawTask(locateTasks(path.join(CLAW_ROOT, 'tasks', id))[0]!).spec;
    const tools = spec.tools.map((x) => ({
      type: 'function',
      function: {
        name: x.name,
        description: x.description ?? '',
        parameters: x.input_schema ?? { type: 'object', properties: {} },
      },
    }));
    return { ...t, tools: tools as unknown as PyValue[] };
  });
}

/** A record with KEEP bucket and the mixed pool unless told otherwise. */
export function recordOf(t: Trajectory, m: Partial<Omit<SftRecord, 'trajectory'>> = {}): SftRecord {
  return {
    recordId: t.trajectory_id,
    taskId: t.task_id,
    trial: null,
    reward: t.reward,
    bucket: 'KEEP',
    pool: 'mixed',
    lineage: { trajectoryId: t.trajectory_id },
    ...m,
    trajectory: t,
  };
}
