import { PYTHON_CLIENT } from './python-client';
import { DEFAULT_ENV_PORT, ENV_PROTOCOL } from './package-record';
import type { Toolset } from './verl-files';

export type ReadmeFacts = {
  packageId: string;
  tasks: number;
  rollouts: number;
  toolsets: Toolset[];
  method: string;
  settings: Record<string, unknown>;
  /** The trainer settings files written (trainer-settings.ts): verl's overrides, TRL's GRPOConfig kwargs. */
  trainerFiles?: { verl: boolean; trl: boolean };
};

/** The package's trainer settings files (trainer-settings.ts), as rows of the layout table. */
const trainerRows = (f: ReadmeFacts) =>
  (f.trainerFiles?.verl
    ? "| `verl/trainer_overrides.txt` | the paper's RL settings (group size, σ normalisation, loss aggregation) as " +
      'verl command-line overrides |\n'
    : '') + (f.trainerFiles?.trl ? '| `trl/grpo_config.json` | the same settings as TRL `GRPOConfig` kwargs |\n' : '');
const OVERRIDES_ARG = '\n  $(cat <this folder>/verl/trainer_overrides.txt) \\';

const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body.trimEnd()}\n\`\`\``;

/** The package's README: layout, how to serve it, how verl uses it, the env-server protocol, a Python client. */
export function rlReadme(f: ReadmeFacts): string {
  const first = f.toolsets[0];
  const sets = f.toolsets
    .map(
      (t) =>
        `| \`verl/${t.id}/\` | ${t.taskIds.length} | ` +
        `${t.tools.map((x) => `\`${x.function.name}\``).join(', ') || '(no tools)'} |`,
    )
    .join('\n');
  return (
    `# CoworkEnv RL package \`${f.packageId}\`

${f.tasks} task(s)${f.rollouts ? `, ${f.rollouts} rollout(s) with ${f.method} advantages` : ''}. Everything here ` +
    `is served by the
environment server from these files alone; \`manifest.json\` lists every file with its sha256 (the server refuses a
package whose files changed) and the lineage of every task and rollout.

| path | what |
|---|---|
| \`tasks.jsonl\` | one task per line: the TaskSpec (request, tools, checks, prohibited rules, reference plan), ` +
    `its fixture files, clock, system prompt |
| \`fixtures/<task>/<service>/*.json\` | the services' records (JSON arrays, as Claw-Eval's mocks load them) |
| \`verl/<toolset>/train.parquet\` | verl RL rows: \`data_source, agent_name, prompt, ability, reward_model, ` +
    `extra_info\` (nested types) |
| \`verl/<toolset>/tool_config.yaml\` | verl tool config: one \`coworkenv_verl.tools.ServiceTool\` per tool of the ` +
    `toolset |
| \`verl/interaction_config.yaml\` | verl interaction config: \`coworkenv_user\` (the simulated user) |
| \`coworkenv_verl/\` | the Python tool, interaction and reward function (\`reward.py: compute_score\`), and ` +
    `\`client.py\` |
${
  f.rollouts
    ? "| `rollouts.jsonl` | one rollout per line: messages, rewards, the package grader's score, advantages |\n"
    : ''
}${trainerRows(f)}| \`preview.json\` | the advantage preview: groups without signal, checks met by trivial runs, flags |

Toolsets (tasks with exactly the same tools share a parquet file and a tool config, since verl's tool config is ` +
    `per run):

| folder | tasks | tools |
|---|---|---|
${sets}

## Serve the environments

${fence(
  'sh',
  `coworkenv env serve --package <this folder> --port ${DEFAULT_ENV_PORT}   # http://127.0.0.1:` +
    `${DEFAULT_ENV_PORT}`,
)}

## Train with verl

${fence(
  'sh',
  `export PYTHONPATH=<this folder>:$PYTHONPATH          # coworkenv_verl is importable
export COWORKENV_ENV_URL=http://127.0.0.1:${DEFAULT_ENV_PORT}   # overrides the YAML's server_url
python -m verl.trainer.main_ppo \\${f.trainerFiles?.verl ? OVERRIDES_ARG : ''}
  data.train_files=<this folder>/verl/${first?.id ?? '<toolset>'}/train.parquet \\
  data.return_raw_chat=True \\
  actor_rollout_ref.rollout.multi_turn.enable=True \\
  actor_rollout_ref.rollout.multi_turn.tool_config_path=<this folder>/verl/${first?.id ?? '<toolset>'}` +
    `/tool_config.yaml \\
  actor_rollout_ref.rollout.multi_turn.interaction_config_path=<this folder>/verl/interaction_config.yaml \\
  custom_reward_function.path=<this folder>/coworkenv_verl/reward.py \\
  custom_reward_function.name=compute_score \\
  ...`,
)}

- Each row's \`extra_info.tools_kwargs.<tool>.create_kwargs.task\` is \`{"task_id", "package_id"}\` as JSON. The ` +
    `tool opens one
  episode per rollout on its first call and leaves its id in the agent loop's \`extra_fields\`, which verl passes to the
  reward function in \`extra_info\`; \`compute_score\` grades and closes the episode. A rollout without a tool ` +
    `call is graded
  on a fresh episode. \`execute_kwargs\`, \`calc_reward_kwargs\` and \`release_kwargs\` carry \`task_id\` only ` +
    `because Parquet
  cannot store an empty struct.
- \`extra_info.tool_selection\` lists the row's tools (verl's per-sample tool selection); ` +
    `\`extra_info.interaction_kwargs\`
  carries the simulated user (\`enabled\`, \`persona\`, \`hidden_facts\`, \`max_rounds\`). Set the interaction's ` +
    `\`user_model\`
  (and \`user_base_url\`, \`user_api_key_env\`) to let it answer; without one, a tool-free answer ends the ` +
    `rollout, as in
  Claw-Eval. The key is read from that environment variable, never written here.
- \`reward_model.ground_truth\` is the task's checks and prohibited rules as a JSON string (for reference: the score
  comes from the env server's grader).
- The final answer the grader reads is the last assistant message when the interaction is configured (it records it
  on the episode); otherwise \`reward.py\` takes the text after the last tool response of the decoded rollout.

## Environment server protocol (${ENV_PROTOCOL})

HTTP/1.1 with JSON bodies on 127.0.0.1 only. The \`Host\` header must be a loopback name (\`127.0.0.1\`, \`localhost\`,
\`[::1]\`), and requests with a body must be \`Content-Type: application/json\` (so a web page cannot drive the server).
Episodes are independent: each is a fresh in-memory copy of its task's services, built from this folder.

| request | body | answer |
|---|---|---|
| \`GET /\` | | \`{protocol, package_id, tasks, episodes, limits, routes}\` |
| \`GET /tasks\` | | \`{tasks: [{task_id, task_name, tools, services, user_agent, max_turns}]}\` |
| \`GET /tasks/<task_id>\` | | the task: prompt messages, tools (OpenAI form), max turns, clock |
| \`POST /episodes\` | \`{task_id, seed?, clock?, mode?, error_rate?, package_id?}\` | 201 \`{episode_id, task_id, ` +
    `prompt, tools, max_turns, clock, seed, mode}\` |
| \`POST /episodes/<id>/step\` | \`{tool, arguments}\` (an object, or the model's raw JSON string) | \`{step, ` +
    `tool, status, is_error, text, latency_ms}\` |
| \`POST /episodes/<id>/grade\` | \`{final_text?, fallback_final_text?}\` | \`{score, passed, completion, safety, ` +
    `robustness, incomplete, checks: [...], safety_violations: [...]}\` |
| \`GET /episodes/<id>\` | | \`{episode_id, task_id, steps, clock, final_text}\` |
| \`GET /episodes/<id>/audit\` | | every service's audit (\`calls\` and action lists) |
| \`DELETE /episodes/<id>\` (or \`POST /episodes/<id>/close\`) | | \`{closed: true, steps}\` |

- \`text\` is the tool result exactly as Claw-Eval's dispatcher shows it to the model (Python \`json.dumps\`, or
  \`Error: …\` for an unknown tool); arguments that are not a JSON object count as \`{}\`, as upstream.
- \`grade\` runs the shared grader on the episode's calls, its final text and its services' audits:
  \`score = round(safety × (0.8·completion + 0.2·robustness), 4)\`, passed at ≥ 0.75. \`final_text\` is recorded on the
  episode; \`fallback_final_text\` is used only when none was recorded. \`llm_judge\` checks are not graded here
  (\`incomplete: true\`, their weight counts 0).
- \`seed\` seeds error injection (\`error_rate\` > 0; off by default, as upstream); \`clock\` overrides the task's ` +
    `pinned clock.
- Errors: \`{"error": {"code", "message"}}\` with 400 (bad JSON or field), 403 (Host), 404 (no such task, episode or
  route), 405, 409 (package mismatch, step limit), 410 (episode expired), 413 (body over 1 MiB), 415 (content type),
  503 (too many open episodes: close finished ones).
- Limits: open episodes, idle expiry and steps per episode are set when the server starts (\`GET /\` shows them).

## Minimal Python client

Standard library only (also \`coworkenv_verl/client.py\`). As a script: \`python client.py URL TASK_ID calls.json ` +
    `[FINAL_TEXT]\`.

${fence('python', PYTHON_CLIENT)}

## Advantages

${
  f.rollouts
    ? `\`rollouts.jsonl\` holds, per rollout: \`advantage\` (every assistant token's advantage; GiGPO: ` +
      `the episode-level part), GiGPO's \`steps\` (per assistant message: anchor state, return, anchor group size, ` +
      `step and total advantage), \`reward\`, \`scores\`, the package grader's result, \`valid\` / ` +
      `\`invalid_reason\`, and the agent-view \`messages\`.`
    : 'No rollouts were exported; `preview.json` still reports what trivial runs of each task score.'
}
Settings (also in \`manifest.json\`):

${fence('json', JSON.stringify(f.settings, null, 2))}
`
  );
}
