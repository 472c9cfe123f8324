import type { VerlLengths } from './verl-lengths';
import { AGENT_LOOP_NAME, VERL_RELEASE } from './verl-release';

/** Where the package lies when verl runs: the train config reads it from this environment variable. */
export const PACKAGE_ENV = 'COWORKENV_PACKAGE';
const PKG = `\${oc.env:${PACKAGE_ENV}}`;

export type VerlConfigInput = {
  toolsetId: string;
  lengths: VerlLengths;
  /** verl's multi_turn.format: the tool-call syntax of the model (v0.9.0 parsers: hermes, qwen3_coder, …). */
  toolFormat?: string;
  /**
   * Further keys of verl's config (dotted paths), e.g. the trainer settings (group size, loss_agg_mode) another
   * part of the export chooses: merged in as given, checked against the same key list by the tests.
   */
  extra?: Record<string, string | number | boolean | null>;
};

/**
 * The verl v0.9.0 overrides for one toolset, as dotted keys of its config schema
 * (verl/trainer/config/ppo_trainer.yaml; test/fixtures/verl-v0.9.0 keeps the key list).
 */
export function verlTrainOverrides(o: VerlConfigInput): [string, string | number | boolean | null][] {
  const L = o.lengths;
  return [
    ['data.train_files', `${PKG}/verl/${o.toolsetId}/train.parquet`],
    ['data.return_raw_chat', true],
    ['data.max_prompt_length', L.maxPromptLength],
    ['data.max_response_length', L.maxResponseLength],
    // Never drop a task silently: a prompt over the limit fails the run (the limit comes from these tasks).
    ['data.filter_overlong_prompts', false],
    ['data.truncation', 'error'],
    // The agent loop appends the simulated user's turns in the token-by-token path (not continuous tokens).
    ['data.continuous_token.enable', false],
    ['actor_rollout_ref.rollout.mode', 'async'],
    ['actor_rollout_ref.rollout.multi_turn.enable', true],
    ['actor_rollout_ref.rollout.multi_turn.format', o.toolFormat ?? 'hermes'],
    ['actor_rollout_ref.rollout.multi_turn.tool_config_path', `${PKG}/verl/${o.toolsetId}/tool_config.yaml`],
    ['actor_rollout_ref.rollout.multi_turn.max_tool_response_length', L.maxToolResponseChars],
    ['actor_rollout_ref.rollout.multi_turn.max_assistant_turns', L.maxAssistantTurns],
    ['actor_rollout_ref.rollout.multi_turn.max_user_turns', L.maxUserTurns],
    ['actor_rollout_ref.rollout.agent.agent_loop_config_path', `${PKG}/verl/agent_loop_config.yaml`],
    ['actor_rollout_ref.rollout.agent.default_agent_loop', AGENT_LOOP_NAME],
    ['reward.custom_reward_function.path', `${PKG}/coworkenv_verl/reward.py`],
    ['reward.custom_reward_function.name', 'compute_score'],
    ...Object.entries(o.extra ?? {}),
  ];
}

const cliValue = (v: string | number | boolean | null) =>
  v === null ? 'null' : typeof v === 'string' ? (/[\s$'"{}]/.test(v) ? `'${v}'` : v) : String(v);

/** The overrides as verl's command line takes them (`key=value`, one a line). */
export const overrideLines = (overrides: [string, string | number | boolean | null][]): string[] =>
  overrides.map(([k, v]) => `${k}=${cliValue(v)}`);

/** The overrides as a nested YAML-ready object (verl/<toolset>/train_overrides.yaml). */
export function nestedOverrides(overrides: [string, unknown][]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [k, v] of overrides) {
    const parts = k.split('.');
    let at = root;
    for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
    at[parts.at(-1)!] = v;
  }
  return root;
}

export const verlTargetText = () =>
  `verl ${VERL_RELEASE.version} (${VERL_RELEASE.repository} tag ${VERL_RELEASE.tag}, ` +
  `${VERL_RELEASE.commit.slice(0, 12)})`;
