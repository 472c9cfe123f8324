/**
 * The one verl release the RL package targets (issue 20). Read at the tags of verl-project/verl:
 * - v0.7.0: the tool agent loop returns `extra_fields={}`, so nothing a tool learns (the episode id)
 *   reaches the reward function; the reward could only grade a fresh episode.
 * - v0.7.1: extra_fields reach the reward (`tool_extra_fields` → `extra_info`) and the interaction
 *   system (`multi_turn.interaction_config_path`) still exists, but per-sample `tool_selection` does not.
 * - v0.8.0: `extra_info.tool_selection` arrives (PR #5978); `verl/interactions` is deleted (PR #6074).
 * - v0.9.0 (newest): as v0.8.0, plus registrable agent loops (`rollout.agent.agent_loop_config_path`)
 *   that subclass ToolAgentLoop. The package's own agent loop serves the simulated user's turns from
 *   the env server and records the final answer on the episode: the deleted interaction is not needed.
 */
export const VERL_RELEASE = {
  version: '0.9.0',
  tag: 'v0.9.0',
  commit: '483b8a009ba3a97563edee3a19887e4862b8094a',
  repository: 'https://github.com/verl-project/verl',
  pip: 'verl==0.9.0',
  why:
    'newest release; its ToolAgentLoop hands agent_data.extra_fields to the reward (>= v0.7.1), reads ' +
    'extra_info.tool_selection (>= v0.8.0) and loads registered agent loops, through which the package serves ' +
    'the simulated user (verl/interactions was removed in v0.8.0)',
} as const;

/** The agent loop the package registers (coworkenv_verl/agent_loop.py) and every row names. */
export const AGENT_LOOP_NAME = 'coworkenv_agent';
