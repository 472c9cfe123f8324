import YAML from 'yaml';
import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import { jsonText, sha256 } from '../package-files';
import type { PType } from './parquet-schema';
import type { OpenAiTool } from './package-tasks';
import { verlToolSchema } from './verl-schema';
import { AGENT_LOOP_NAME, VERL_RELEASE } from './verl-release';

const TOOL_CLASS = 'coworkenv_verl.tools.ServiceTool';
const AGENT_LOOP_CLASS = 'coworkenv_verl.agent_loop.CoworkEnvAgentLoop';

/**
 * Tasks that offer exactly the same tools (names and schemas): one parquet file and one tool YAML
 * each (formats.md §3.5 [ours]) — verl's tool config is global to a run and `tools_kwargs` is a
 * struct keyed by tool name, so rows with different tools cannot share a file.
 */
export type Toolset = { id: string; tools: OpenAiTool[]; taskIds: string[] };

export function toolsets(tasks: readonly { spec: TaskSpec; tools: OpenAiTool[] }[]): Toolset[] {
  const byKey = new Map<string, Toolset>();
  for (const t of tasks) {
    // Keyed order-free; the YAML keeps the first task's order (the order the model is shown the tools).
    const key = sha256(jsonText([...t.tools].sort((a, b) => (a.function.name < b.function.name ? -1 : 1))));
    const tools = t.tools;
    const hit = byKey.get(key);
    if (hit) hit.taskIds.push(t.spec.task_id);
    else {
      const services = [...new Set(t.spec.services.map((s) => s.name))].sort().join('-') || 'none';
      const id = `ts${String(byKey.size + 1).padStart(2, '0')}_${services}`.slice(0, 80);
      byKey.set(key, { id, tools, taskIds: [t.spec.task_id] });
    }
  }
  return [...byKey.values()];
}

/** Each tool's four lifecycle kwargs; Parquet has no empty structs, so the last three carry the task id. */
const toolKwargsType: PType = {
  struct: [
    ['create_kwargs', { struct: [['task', 'string']] }],
    ['execute_kwargs', { struct: [['task_id', 'string']] }],
    ['calc_reward_kwargs', { struct: [['task_id', 'string']] }],
    ['release_kwargs', { struct: [['task_id', 'string']] }],
  ],
};

/** The columns of verl's RL dataset (formats.md §3.5) for one toolset, as real nested types. */
export function verlColumns(ts: Toolset): [string, PType][] {
  const extra: [string, PType][] = [
    ['split', 'string'],
    ['index', 'int64'],
    ['task_id', 'string'],
    ['package_id', 'string'],
    ['need_tools_kwargs', 'bool'],
  ];
  if (ts.tools.length) extra.push(['tools_kwargs', { struct: ts.tools.map((t) => [t.function.name, toolKwargsType]) }]);
  extra.push(['tool_selection', { list: 'string' }]);
  return [
    ['data_source', 'string'],
    ['agent_name', 'string'],
    [
      'prompt',
      {
        list: {
          struct: [
            ['role', 'string'],
            ['content', 'string'],
          ],
        },
      },
    ],
    ['ability', 'string'],
    [
      'reward_model',
      {
        struct: [
          ['style', 'string'],
          ['ground_truth', 'string'],
        ],
      },
    ],
    ['extra_info', { struct: extra }],
  ];
}

/**
 * One row: the initial chat only, the grading data as a JSON string (reference only: the reward is the env
 * server's grade), the kwargs verl hands the tools; `agent_name` routes the row to the package's agent loop.
 */
export function verlRow(spec: TaskSpec, index: number, ts: Toolset, packageId: string, systemPrompt: string) {
  const task = jsonText({ task_id: spec.task_id, package_id: packageId });
  return {
    data_source: `coworkenv/${spec.category || 'uncategorised'}`,
    agent_name: AGENT_LOOP_NAME,
    prompt: [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: spec.prompt.text },
    ],
    ability: 'tool_use',
    reward_model: {
      style: 'rule',
      ground_truth: jsonText({
        task_id: spec.task_id,
        package_id: packageId,
        checks: spec.checks,
        prohibited: spec.prohibited,
        checks_origin: spec.checks_origin,
        score: 'round(safety * (0.8 * completion + 0.2 * robustness), 4); pass >= 0.75',
      }),
    },
    extra_info: {
      split: 'train',
      index,
      task_id: spec.task_id,
      package_id: packageId,
      need_tools_kwargs: ts.tools.length > 0,
      ...(ts.tools.length
        ? {
            tools_kwargs: Object.fromEntries(
              ts.tools.map((t) => [
                t.function.name,
                {
                  create_kwargs: { task },
                  execute_kwargs: { task_id: spec.task_id },
                  calc_reward_kwargs: { task_id: spec.task_id },
                  release_kwargs: { task_id: spec.task_id },
                },
              ]),
            ),
          }
        : {}),
      tool_selection: ts.tools.map((t) => t.function.name),
    },
  };
}

/**
 * OmegaConf (which loads verl's YAML) resolves `${…}` interpolations inside strings and reads
 * YAML 1.1 (yes/no/on/off are booleans): escape the one, let the 1.1 writer quote the other.
 */
function omegaSafe(v: unknown): unknown {
  if (typeof v === 'string') return v.replaceAll('${', '\\${');
  if (Array.isArray(v)) return v.map(omegaSafe);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, omegaSafe(x)]));
  return v;
}

const yamlOf = (v: unknown, head: string) =>
  `${head}${YAML.stringify(omegaSafe(v), { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false })}`;

/** The tool config: one ServiceTool per tool, each schema as verl's schema model keeps it (verl-schema.ts). */
export function toolConfigYaml(ts: Toolset, serverUrl: string): string {
  return yamlOf(
    {
      tools: ts.tools.map((t) => ({
        class_name: TOOL_CLASS,
        config: { type: 'native', server_url: serverUrl },
        tool_schema: verlToolSchema(t).tool,
      })),
    },
    `# verl ${VERL_RELEASE.version} tool config for ${ts.id} (${ts.taskIds.length} task(s)): ` +
      `actor_rollout_ref.rollout.multi_turn.tool_config_path\n`,
  );
}

/** The agent loop config (a list of {name, _target_}, as verl's AgentLoopWorker loads it). */
export function agentLoopConfigYaml(): string {
  return yamlOf(
    [{ name: AGENT_LOOP_NAME, _target_: AGENT_LOOP_CLASS }],
    `# verl ${VERL_RELEASE.version} agent loop config: actor_rollout_ref.rollout.agent.agent_loop_config_path\n`,
  );
}

/** Any YAML the package writes for verl (OmegaConf-safe, YAML 1.1). */
export const verlYaml = (v: unknown, head: string) => yamlOf(v, head);
