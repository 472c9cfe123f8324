import { PYTHON_CLIENT } from './python-client';
import { DEFAULT_ENV_LIMITS, DEFAULT_ENV_PORT, ENV_PROTOCOL } from './package-record';
import { overrideLines, PACKAGE_ENV, verlTrainOverrides } from './verl-config';
import type { Toolset } from './verl-files';
import type { VerlLengths } from './verl-lengths';
import { AGENT_LOOP_NAME, VERL_RELEASE } from './verl-release';

export type ReadmeFacts = {
  packageId: string;
  tasks: number;
  rollouts: number;
  toolsets: Toolset[];
  method: string;
  settings: Record<string, unknown>;
  lengths: VerlLengths;
  toolFormat?: string | undefined;
  /** One line per keyword verl's tool schema model drops (verl-schema.ts). */
  schemaFolds: string[];
  /** The trainer settings files written (trainer-settings.ts): verl's overrides, TRL's GRPOConfig kwargs. */
  trainerFiles?: { verl: boolean; trl: boolean };
  /** The trainer settings that join the verl command (trainer-settings.ts verlExtraOverrides). */
  trainerOverrides?: Record<string, string | number | boolean>;
};

/** The package's trainer settings files (trainer-settings.ts), as rows of the layout table. */
const trainerRows = (f: ReadmeFacts) =>
  (f.trainerFiles?.verl
    ? "| `verl/trainer_overrides.txt` | the paper's RL settings (group size, σ normalisation, loss aggregation) as " +
      'verl command-line overrides |\n'
    : '') + (f.trainerFiles?.trl ? '| `trl/grpo_config.json` | the same settings as TRL `GRPOConfig` kwargs |\n' : '');

const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body.trimEnd()}\n\`\`\``;

/** The package's README: layout, how to serve it, how verl uses it, the env-server protocol, a Python client. */
export function rlReadme(f: ReadmeFacts): string {
  const first = f.toolsets[0];
  const L = f.lengths;
  const episode = L.measured.longestEpisode;
  const overrides = overrideLines(
    verlTrainOverrides({
      toolsetId: first?.id ?? '<toolset>',
      lengths: L,
      ...(f.trainerOverrides ? { extra: f.trainerOverrides } : {}),
      ...(f.toolFormat ? { toolFormat: f.toolFormat } : {}),
    }),
  );
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
| \`verl/<toolset>/train_overrides.yaml\` | the verl ${VERL_RELEASE.version} overrides of the command below ` +
    `(keys of its config schema) |
| \`verl/agent_loop_config.yaml\` | verl agent loop config: \`${AGENT_LOOP_NAME}\` (episodes, simulated user, ` +
    `final answer) |
| \`coworkenv_verl/\` | the agent loop, the tool, the reward function (\`reward.py: compute_score\`), and ` +
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
    `${DEFAULT_ENV_PORT}\n` +
    '# with an LLM judge for llm_judge checks (see "grade" below):\n' +
    'COWORKENV_JUDGE_API_KEY=… coworkenv env serve --package <this folder> ' +
    '--judge-url <base URL> --judge-model <model>',
)}

## Train with verl ${VERL_RELEASE.version}

This package targets **verl ${VERL_RELEASE.version}** (\`pip install ${VERL_RELEASE.pip}\`; ` +
    `${VERL_RELEASE.repository} tag ` +
    `\`${VERL_RELEASE.tag}\`, commit \`${VERL_RELEASE.commit.slice(0, 12)}\`): ${VERL_RELEASE.why}. Other ` +
    `releases differ where it matters: v0.7.0 passes no \`extra_fields\` to the reward; v0.7.1 has no per-sample ` +
    `\`tool_selection\`; v0.8.0 removed the interaction system this package no longer uses.

${fence(
  'sh',
  `export PYTHONPATH=<this folder>:$PYTHONPATH          # coworkenv_verl is importable
export ${PACKAGE_ENV}=<this folder>                  # the overrides read the package's paths from it
export COWORKENV_ENV_URL=http://127.0.0.1:${DEFAULT_ENV_PORT}   # or COWORKENV_ENV_URLS=url1,url2,… (scale-out)
python -m verl.trainer.main_ppo \\
${overrides.map((l) => `  ${l} \\`).join('\n')}
  actor_rollout_ref.model.path=<model> actor_rollout_ref.rollout.name=<vllm|sglang> ...`,
)}

Lengths, measured on this package's tasks in **${L.unit}** (${L.counter})${
      L.unit === 'characters'
        ? ': for BPE tokenizers a character count bounds the token count from above; re-export with the ' +
          "model's tokenizer for tighter token limits"
        : ''
    }:

| setting | value | measured |
|---|---|---|
| \`data.max_prompt_length\` | ${L.maxPromptLength} | longest prompt (system, request, tool schemas): ` +
    `${L.measured.longestPrompt.length} (${L.measured.longestPrompt.task_id}), +10% +64 |
| \`data.max_response_length\` | ${L.maxResponseLength} | longest reference episode (calls, results, answer): ` +
    `${episode ? `${episode.length} (${episode.task_id})` : '—'}` +
    `, +10% +64 |
| \`multi_turn.max_tool_response_length\` | ${L.maxToolResponseChars} characters (verl cuts by characters) | ` +
    `longest reference-plan tool result: ${L.measured.longestToolResult?.characters ?? '—'} |
| \`multi_turn.max_assistant_turns\` / \`max_user_turns\` | ${L.maxAssistantTurns} / ${L.maxUserTurns} | the ` +
    `tasks' max turns; plus their simulated-user rounds |

${L.measured.tasksWithReferencePlan} of ${L.measured.tasks} task(s) have a reference plan to measure episodes ` +
    `with. \`data.filter_overlong_prompts=False\` with \`data.truncation=error\`: a longer prompt stops the run ` +
    `instead of being dropped silently.

- Every row names \`agent_name: ${AGENT_LOOP_NAME}\`: the package's agent loop (ToolAgentLoop of verl ` +
    `${VERL_RELEASE.version}) opens one env-server episode per rollout before the first generation, gives its id ` +
    `to the tools, and hands it to the reward in \`extra_fields\` (verl passes them in \`extra_info\`).
- \`compute_score\` returns the env server's grade of that episode, looked up by its id, and closes it. It never ` +
    `reads the decoded text: the final answer graded is the one the agent loop recorded from the model's last turn ` +
    `(\`POST /episodes/<id>/reply\`), so rewording the decoded output cannot change the reward.
- The simulated user: when the model answers without a tool call, the agent loop sends the answer to the env ` +
    `server, whose user (scripted: it answers questions that name its hidden facts, [DONE] otherwise) replies until ` +
    `it is done or the task's \`max_rounds\` are used; the reply is the next user turn, masked out of the loss.
- \`extra_info.tool_selection\` lists the row's tools (verl's per-sample tool selection). ` +
    `\`extra_info.tools_kwargs\` is kept for verl's tool lifecycle; the tools find the episode on the agent data.
- \`reward_model.ground_truth\` is the task's checks and prohibited rules as a JSON string (for reference).
- Tool schemas: verl ${VERL_RELEASE.version}'s schema model keeps only \`type\`, \`description\` and \`enum\` ` +
    `per parameter; ${
      f.schemaFolds.length
        ? `${f.schemaFolds.length} keyword(s) it would drop are folded into the descriptions:\n${f.schemaFolds
            .map((l) => `  - ${l}`)
            .join('\n')}`
        : 'no tool here uses anything else.'
    }
- Tool-call syntax: \`multi_turn.format=${f.toolFormat ?? 'hermes'}\` (Qwen2.5 / Qwen3). verl ` +
    `${VERL_RELEASE.version} has no Llama 3.1 (\`llama3_json\`) parser: train Llama 3.1 with a hermes-style ` +
    `chat template.

## Scale out: many rollout workers, several env servers

One \`env serve\` is one single-threaded process holding its episodes in memory (at most ` +
    `${DEFAULT_ENV_LIMITS.maxEpisodes} open at once; an episode idle ${DEFAULT_ENV_LIMITS.idleMs / 60_000} ` +
    `minutes is closed). ` +
    `Servers scale by count:

- **One process per core**, each on its own port, on as many machines as needed, every one serving this same ` +
    `folder: \`coworkenv env serve --package <this folder> --host 0.0.0.0 --port 8765\`, then \`--port 8766\`, … ` +
    `(\`--host\` turns the loopback Host check off: a trusted cluster network only). Plan for the rollouts in ` +
    `flight: verl's batch size × \`rollout.n\` episodes are open during a step, so use enough servers to keep ` +
    `each under the limit above.
- **Every verl node** gets the full list: \`COWORKENV_ENV_URLS=http://envhost1:8765,http://envhost1:8766,` +
    `http://envhost2:8765\`. Each rollout (verl's Ray agent-loop workers run them) picks one server at random ` +
    `when it opens its episode and **keeps it**: its tool calls, user turns and reward all go to that server ` +
    `(the URL travels with the episode id in \`extra_info.coworkenv_server_url\`), because the episode lives ` +
    `only there.
- **Health check**: \`GET /\` answers 200 with \`{protocol, package_id, tasks, episodes, limits}\` ` +
    `(\`episodes\` = open now); check every URL before training (\`curl -fsS http://envhost1:8765/\`) and ` +
    `that all of them name the same \`package_id\` (an episode asking another package is refused, 409).
- **When a server dies**, its open episodes die with it: the rollouts on it fail (a connection error, which ` +
    `fails that training step: there is no retry or failover to another server), and so does any rollout that ` +
    `picks it later. Restart it on the same port (the package is re-checked at start) before the next step, or ` +
    `drop its URL from \`COWORKENV_ENV_URLS\` and restart the trainer.

## Environment server protocol (${ENV_PROTOCOL})

HTTP/1.1 with JSON bodies on 127.0.0.1 (unless started with \`--host\`). The \`Host\` header must be a loopback ` +
    `name (\`127.0.0.1\`, \`localhost\`,
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
| \`POST /episodes/<id>/reply\` | \`{text, ask_user?}\` | \`{done, user, rounds, final_text}\`: the text is ` +
    `the episode's final answer; the simulated user's next turn when not done |
| \`POST /episodes/<id>/grade\` | \`{final_text?, fallback_final_text?}\` | \`{score, passed, completion, safety, ` +
    `robustness, incomplete, checks: [...], safety_violations: [...]}\` |
| \`GET /episodes/<id>\` | | \`{episode_id, task_id, steps, clock, final_text}\` |
| \`GET /episodes/<id>/audit\` | | every service's audit (\`calls\` and action lists) |
| \`DELETE /episodes/<id>\` (or \`POST /episodes/<id>/close\`) | | \`{closed: true, steps}\` |

- \`text\` is the tool result exactly as Claw-Eval's dispatcher shows it to the model (Python \`json.dumps\`, or
  \`Error: …\` for an unknown tool); arguments that are not a JSON object count as \`{}\`, as upstream.
- \`grade\` runs the shared grader on the episode's calls, its final text and its services' audits:
  \`score = round(safety × (0.8·completion + 0.2·robustness), 4)\`, passed at ≥ 0.75. \`final_text\` is recorded on the
  episode; \`fallback_final_text\` is used only when none was recorded.
- \`llm_judge\` checks (the reward needs a number, so the server decides what they count): started with
  \`--judge-url URL --judge-model MODEL\` (an OpenAI-compatible endpoint; its key from the environment variable
  \`COWORKENV_JUDGE_API_KEY\`, never a flag), the server asks the judge with Claw-Eval's judge prompt, temperature 0,
  and keeps each verdict in memory by content hash (identical episodes of a GRPO group are judged once); the answer
  then has \`judge: {model, asked, cached, failed}\`. Without a judge, or when it still fails after the client's
  retries (429, 5xx, timeouts), the check is "judge pending": \`incomplete: true\`, \`pending_weight\` > 0, its
  weight counts 0 in \`score\` (a lower bound: a policy is not rewarded for what no judge saw). The judge's
  \`## Conversation\` is what the server saw: the task prompt, every \`reply\` text and simulated-user turn, and
  the final text (tool calls are summarised from the audits under \`## Actions Taken\`).
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
