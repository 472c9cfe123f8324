/**
 * The Python side of the package for verl (coworkenv_verl/): the tool class and the interaction
 * class the YAML files name, and the reward function. All talk to the env server through client.py.
 * verl is imported lazily, so the modules also load (and are tested) without it.
 */
export const PYTHON_INIT =
  `"""CoworkEnv RL package: verl tool, interaction and reward function over the ` +
  `environment server."""
`;

export const PYTHON_TOOLS =
  `"""verl tool: every CoworkEnv tool call of a rollout goes to one env-server episode.

verl creates and releases a tool instance around every single call (ToolAgentLoop._call_tool), so the
episode belongs to the rollout, not to the instance: it is keyed by the agent loop's request id, created
on the rollout's first call, and its id is left in agent_data.extra_fields, which verl hands to the reward
function inside extra_info. Calls of one turn run one at a time, in the order the model made them.
"""
from asyncio import Lock, to_thread
from collections import OrderedDict
from json import loads
from os import environ
from threading import Lock as ThreadLock
from uuid import uuid4

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
_rollouts = OrderedDict()  # request id -> {"lock": asyncio.Lock, "episode": str | None}
_guard = ThreadLock()
_MAX_ROLLOUTS = 100_000


def server_url(config=None):
    return environ.get("COWORKENV_ENV_URL") or (config or {}).get("server_url") or DEFAULT_URL


def episode_of(request_id):
    """The episode of a rollout (by its request id), or None before its first tool call."""
    entry = _rollouts.get(request_id)
    return entry and entry["episode"]


class ServiceTool(BaseTool):
    def __init__(self, config, tool_schema):
        super().__init__(config, tool_schema)
        self.client = EnvClient(server_url(config))
        self._tasks = {}

    async def create(self, instance_id=None, **kwargs):
        instance_id = instance_id or str(uuid4())
        create_kwargs = kwargs.get("create_kwargs", kwargs) or {}
        self._tasks[instance_id] = loads(create_kwargs["task"]) if "task" in create_kwargs else {}
        return instance_id, ToolResponse(text="")

    async def execute(self, instance_id, parameters, **kwargs):
        task = self._tasks.get(instance_id) or {}
        agent_data = kwargs.get("agent_data")
        key = getattr(agent_data, "request_id", None) or instance_id
        with _guard:
            entry = _rollouts.setdefault(key, {"lock": Lock(), "episode": None})
            while len(_rollouts) > _MAX_ROLLOUTS:
                _rollouts.popitem(last=False)
        async with entry["lock"]:
            try:
                if entry["episode"] is None:
                    if "task_id" not in task:
                        raise EnvError(400, "no_task", "create_kwargs.task names no task_id (is need_tools_kwargs ` +
  `set?)")
                    ep = await to_thread(self.client.create, task["task_id"], package_id=task.get("package_id"))
                    entry["episode"] = ep["episode_id"]
                    if agent_data is not None:
                        agent_data.extra_fields[EPISODE_KEY] = entry["episode"]
                        agent_data.extra_fields[SERVER_KEY] = self.client.base_url
                r = await to_thread(self.client.step, entry["episode"], self.name, parameters)
            except EnvError as e:
                return ToolResponse(text=f"Error: {e.message}"), 0.0, {"env_error": e.code}
        return ToolResponse(text=r["text"]), 0.0, {"status": r["status"], "is_error": r["is_error"]}

    async def calc_reward(self, instance_id, **kwargs):
        return 0.0

    async def release(self, instance_id, **kwargs):
        self._tasks.pop(instance_id, None)
`;

export const PYTHON_REWARD =
  `"""verl custom reward function: the shared grader's score of the rollout's ` +
  String.raw`episode.

custom_reward_function.path=<package>/coworkenv_verl/reward.py custom_reward_function.name=compute_score
"""
from json import loads
from os import environ
from re import S, sub
from re import compile as re_compile

from .client import DEFAULT_URL, EnvClient, EnvError
from .tools import EPISODE_KEY, SERVER_KEY

_THINK = re_compile(r"<think>.*?</think>", S)
_MARKERS = ("</tool_response>", "<|im_start|>assistant", "<|start_header_id|>assistant<|end_header_id|>")
_END = re_compile(r"(<\|im_end\|>|<\|eot_id\|>|<\|endoftext\|>|</s>)\s*$")


def final_answer(solution_str):
    """Best effort: the text after the last tool response of the decoded rollout, minus think blocks.
    The interaction (when configured) records the exact final message instead, which then wins."""
    text = solution_str or ""
    cut = max((text.rfind(m) + len(m) for m in _MARKERS if m in text), default=0)
    text = _THINK.sub("", text[cut:])
    text = sub(r"^\s*(user|assistant)\s*\n", "", text.lstrip("\n"))
    return _END.sub("", text).strip()


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    extra_info = extra_info or {}
    url = kwargs.get("server_url") or extra_info.get(SERVER_KEY) or environ.get("COWORKENV_ENV_URL") or DEFAULT_URL
    client = EnvClient(url)
    truth = loads(ground_truth) if isinstance(ground_truth, str) else dict(ground_truth)
    episode = extra_info.get(EPISODE_KEY)
    if not episode:  # no tool call in this rollout: grade an untouched episode of the task
        episode = client.create(truth["task_id"], package_id=truth.get("package_id"))["episode_id"]
    try:
        g = client.grade(episode, fallback_final_text=final_answer(solution_str))
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

export const PYTHON_INTERACTIONS =
  `"""verl interaction: Claw-Eval's multi-turn user (persona, hidden ` +
  String.raw`facts, max rounds, [DONE]).

Consulted when the model answers without a tool call. It records that answer on the rollout's episode
(the exact final text the grader reads), then either ends the rollout (no simulated user, rounds used up,
no user model configured) or asks the configured OpenAI-compatible user model for the next user turn.
"""
from asyncio import to_thread
from json import dumps, loads
from os import environ
from urllib import request as urlrequest
from uuid import uuid4

from .client import EnvClient, EnvError
from .tools import episode_of, server_url

try:
    from verl.interactions.base import BaseInteraction
except ImportError:

    class BaseInteraction:
        def __init__(self, config):
            self.config = config
            self.name = config.get("name", "interaction_agent")


class SimulatedUser(BaseInteraction):
    def __init__(self, config):
        super().__init__(config)
        self.client = EnvClient(server_url(config))
        self._sessions = {}

    async def start_interaction(self, instance_id=None, **kwargs):
        instance_id = instance_id or uuid4().hex
        self._sessions[instance_id] = {"kwargs": kwargs, "rounds": 0}
        return instance_id

    async def generate_response(self, instance_id, messages, **kwargs):
        session = self._sessions.setdefault(instance_id, {"kwargs": kwargs, "rounds": 0})
        task = session["kwargs"]
        answer = next((m.get("content") or "" for m in reversed(messages) if m.get("role") == "assistant"), "")
        score = 0.0
        episode = episode_of(instance_id)
        if episode:
            try:
                score = (await to_thread(self.client.grade, episode, answer))["score"]
            except EnvError:
                pass
        model = self.config.get("user_model")
        if not task.get("enabled") or not model or session["rounds"] >= int(task.get("max_rounds") or 0):
            return True, "", score, {}
        reply = await to_thread(self._ask_user, task, messages, model)
        session["rounds"] += 1
        done = "[DONE]" in reply
        return done, reply.replace("[DONE]", "").strip() if done else reply, score, {"user_rounds": session["rounds"]}

    def _ask_user(self, task, messages, model):
        facts = "\n".join(f"- {f}" for f in task.get("hidden_facts") or [])
        system = (
            f"{task.get('persona', '')}\n\nYou are the user talking to an assistant. Reveal these facts only when ` +
  String.raw`asked:\n"
            f"{facts}\nReply with [DONE] when your request is fully handled."
        )
        flipped = [{"role": "system", "content": system}] + [
            {"role": "user" if m["role"] == "assistant" else "assistant", "content": m.get("content") or ""}
            for m in messages
            if m.get("role") in ("user", "assistant") and (m.get("content") or "")
        ]
        base = (self.config.get("user_base_url") or "https://api.openai.com/v1").rstrip("/")
        key = environ.get(self.config.get("user_api_key_env") or "OPENAI_API_KEY", "")
        req = urlrequest.Request(
            base + "/chat/completions",
            data=dumps({"model": model, "messages": flipped, "temperature": 0}).encode("utf-8"),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
        )
        with urlrequest.urlopen(req, timeout=120) as res:
            return loads(res.read().decode("utf-8"))["choices"][0]["message"]["content"] or ""

    async def calculate_score(self, instance_id, **kwargs):
        return 0.0

    async def finalize_interaction(self, instance_id, **kwargs):
        self._sessions.pop(instance_id, None)
`;
