/**
 * The Python side of the package for verl v0.9.0 (coworkenv_verl/): the agent loop the rows name,
 * the tool class the tool YAML names, and the reward function. All talk to the env server through
 * client.py. verl is imported lazily by the tools, so tools.py and reward.py also load without it.
 */
import { AGENT_LOOP_NAME, VERL_RELEASE } from './verl-release';

export const PYTHON_INIT =
  `"""CoworkEnv RL package for verl ${VERL_RELEASE.version}: agent loop, tool and reward function over the ` +
  `environment server."""
VERL_VERSION = "${VERL_RELEASE.version}"
`;

export const PYTHON_TOOLS = `"""verl tool: every CoworkEnv tool call of a rollout is a step of the rollout's
env-server episode.

verl creates and releases a tool instance around every single call (ToolAgentLoop._call_tool), so the
episode belongs to the rollout: the package's agent loop (agent_loop.py) opens it before the first
generation and leaves its id on agent_data, which verl passes to execute(). Calls of one turn run one at a
time, in the order the model made them.
"""
from asyncio import Lock, to_thread
from os import environ
from random import choice

from .client import DEFAULT_URL, EnvClient, EnvError

try:  # inside verl
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import ToolResponse
except ImportError:  # outside verl: same calls, plain values

    class BaseTool:
        def __init__(self, config, tool_schema):
            self.config, self.tool_schema = config, tool_schema
            self.name = tool_schema["function"]["name"]

    def ToolResponse(text=None):
        return {"text": text}


EPISODE_KEY = "coworkenv_episode_id"
SERVER_KEY = "coworkenv_server_url"
LOCK_ATTR = "coworkenv_lock"


def server_url(config=None):
    """COWORKENV_ENV_URLS (comma-separated env servers: one picked at random per episode), COWORKENV_ENV_URL,
    the tool config's server_url, or the default."""
    many = [u.strip() for u in environ.get("COWORKENV_ENV_URLS", "").split(",") if u.strip()]
    if many:
        return choice(many)
    return environ.get("COWORKENV_ENV_URL") or (config or {}).get("server_url") or DEFAULT_URL


class ServiceTool(BaseTool):
    def __init__(self, config, tool_schema):
        super().__init__(config, tool_schema)
        self.client = EnvClient(server_url(config))

    async def create(self, instance_id=None, **kwargs):
        return instance_id or "coworkenv", ToolResponse(text="")

    async def execute(self, instance_id, parameters, **kwargs):
        agent_data = kwargs.get("agent_data")
        episode = getattr(agent_data, EPISODE_KEY, None)
        if not episode:
            return (
                ToolResponse(text="Error: no CoworkEnv episode (run the rows with agent_name ${AGENT_LOOP_NAME})"),
                0.0,
                {"env_error": "no_episode"},
            )
        url = getattr(agent_data, SERVER_KEY, None)  # the server that holds the episode
        client = EnvClient(url) if url else self.client
        lock = getattr(agent_data, LOCK_ATTR, None) or Lock()
        async with lock:
            try:
                r = await to_thread(client.step, episode, self.name, parameters)
            except EnvError as e:
                return ToolResponse(text=f"Error: {e.message}"), 0.0, {"env_error": e.code}
        return ToolResponse(text=r["text"]), 0.0, {"status": r["status"], "is_error": r["is_error"]}

    async def calc_reward(self, instance_id, **kwargs):
        return 0.0

    async def release(self, instance_id, **kwargs):
        pass
`;

export const PYTHON_REWARD = `"""verl custom reward function: the env server's grade of the rollout's episode,
looked up by its id.

reward.custom_reward_function.path=<package>/coworkenv_verl/reward.py
reward.custom_reward_function.name=compute_score

The episode id comes from the agent loop (extra_fields -> extra_info). The decoded text of the rollout
(solution_str) is never read: the final answer the grader sees is the one the agent loop recorded on the
episode from the model's last turn, so no wording of the decoded text can move the reward.
"""
from os import environ

from .client import DEFAULT_URL, EnvClient, EnvError
from .tools import EPISODE_KEY, SERVER_KEY


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    extra_info = extra_info or {}
    episode = extra_info.get(EPISODE_KEY)
    if not episode:
        raise ValueError(
            f"extra_info has no {EPISODE_KEY}: the rollout did not run in the package's agent loop "
            "(rows must keep agent_name ${AGENT_LOOP_NAME} and the agent loop config must be passed)"
        )
    url = extra_info.get(SERVER_KEY) or environ.get("COWORKENV_ENV_URL") or DEFAULT_URL
    client = EnvClient(url)
    try:
        g = client.grade(episode)
    finally:
        try:
            client.close(episode)
        except EnvError:
            pass
    return {
        "score": g["score"],
        "completion": g["completion"],
        "safety": g["safety"],
        "robustness": g["robustness"],
        "passed": 1.0 if g["passed"] else 0.0,
    }
`;

export const PYTHON_AGENT_LOOP = `"""verl ${VERL_RELEASE.version} agent loop "${AGENT_LOOP_NAME}": ToolAgentLoop with
one env-server episode per rollout.

- Before the first generation it opens the rollout's episode (extra_info.task_id) and leaves the id on
  agent_data for the tools; after the rollout the id goes into extra_fields, which verl hands to the
  reward function in extra_info.
- Whenever the rollout stops, or the model answers without a tool call, it records that turn's text
  (the release's tool parser on that turn's token ids) on the episode as the final answer.
- An answer without a tool call goes to the env server's simulated user (POST /episodes/<id>/reply): its
  reply comes back as the next user turn (masked out of the loss, like tool results) until the user is done
  or the task's rounds are used up, as Claw-Eval's multi-turn user. verl ${VERL_RELEASE.version} has no interaction
  system (removed in v0.8.0), so the user's turns are served here.
Needs actor_rollout_ref.rollout.agent.agent_loop_config_path=<package>/verl/agent_loop_config.yaml.
"""
from asyncio import Lock, to_thread

from verl.experimental.agent_loop.agent_loop import register
from verl.experimental.agent_loop.tool_agent_loop import AgentState, ToolAgentLoop

from .client import EnvClient, EnvError
from .tools import EPISODE_KEY, LOCK_ATTR, SERVER_KEY, server_url


@register("${AGENT_LOOP_NAME}")
class CoworkEnvAgentLoop(ToolAgentLoop):
    async def run(self, sampling_params, **kwargs):
        extra = kwargs.get("extra_info") or {}
        if not extra.get("task_id"):
            raise ValueError("extra_info.task_id is missing: the row is not from a CoworkEnv RL package")
        self._env = EnvClient(server_url())
        created = await to_thread(self._env.create, extra["task_id"], package_id=extra.get("package_id"))
        self._episode = created["episode_id"]
        try:
            output = await super().run(sampling_params, **kwargs)
        except BaseException:
            try:
                self._env.close(self._episode)
            except EnvError:
                pass
            raise
        output.extra_fields[EPISODE_KEY] = self._episode
        output.extra_fields[SERVER_KEY] = self._env.base_url
        return output

    async def _handle_pending_state(self, agent_data, sampling_params):
        setattr(agent_data, EPISODE_KEY, self._episode)
        setattr(agent_data, SERVER_KEY, self._env.base_url)
        setattr(agent_data, LOCK_ATTR, Lock())
        return await super()._handle_pending_state(agent_data, sampling_params)

    def _limited(self, agent_data):
        return (
            len(agent_data.response_mask) >= self.response_length
            or bool(self.max_assistant_turns and agent_data.assistant_turns >= self.max_assistant_turns)
            or bool(self.max_user_turns and agent_data.user_turns >= self.max_user_turns)
        )

    async def _handle_generating_state(self, agent_data, sampling_params, ignore_termination=False):
        state = await super()._handle_generating_state(agent_data, sampling_params, ignore_termination)
        if state != AgentState.TERMINATED:
            return state
        active = getattr(agent_data, "_active_tools", self.tools)
        content, calls = await self.tool_parser.extract_tool_calls(
            agent_data.response_ids, [t.tool_schema for t in active.values()]
        )
        ask = not calls and not self._limited(agent_data)
        r = await to_thread(self._env.reply, self._episode, content or "", ask)
        if not ask or r["done"]:
            return AgentState.TERMINATED
        user_ids = await self.apply_chat_template(
            [{"role": "user", "content": r["user"]}], remove_system_prompt=True
        )
        user_ids = self.turn_separator + user_ids
        if len(agent_data.response_mask) + len(user_ids) >= self.response_length:
            return AgentState.TERMINATED
        agent_data.prompt_ids += user_ids
        agent_data.response_mask += [0] * len(user_ids)
        if agent_data.response_logprobs:
            agent_data.response_logprobs += [0.0] * len(user_ids)
        agent_data.user_turns += 1
        return AgentState.GENERATING
`;
