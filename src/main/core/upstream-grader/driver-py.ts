/**
 * The Python side of upstream grading (upstream-worker.ts passes it to `python3 -c`): loads the user's Claw-Eval
 * checkout once and grades trace after trace with each task's own grader.py. Its docstring is the line protocol.
 */
export const DRIVER_PY = String.raw`#!/usr/bin/env python3
"""Grades Claw-Eval traces with each task's own grader.py from the user's Claw-Eval checkout.

CoworkEnv Studio runs this as a long-lived subprocess (src/main/core/upstream-grader/), one JSON object a line:
  stdin   first the configuration {"root": checkout, "judge": null | {"stub_score": x} | {"model", "base_url"}},
          then one request a line: {"id": n, "task_dir": folder holding task.yaml and grader.py, "trace": JSONL path}
  stdout  exactly one line per request, in order: {"id": n, "ok": true, "completion", "safety", "robustness",
          "score", "passed", "judge_calls"} or {"id": n, "ok": false, "stage", "file", "error"} (error = the
          traceback's last line). End of stdin ends the process.
The protocol keeps private copies of file descriptors 0 and 1: a grader that prints (print, sys.__stdout__,
os.write(1, ...), a child process) writes to stderr, and one that reads stdin reads /dev/null. The judge key, when
a real judge is configured, comes from the COWORKENV_JUDGE_API_KEY environment variable, never from stdin. The
network is closed except to the judge's host. Loading and scoring follow upstream's own code:
claw_eval.trace.reader.load_trace, graders.registry.get_grader (optional grade() keywords passed only when its
signature names them), models.scoring.compute_task_score. Each grader.py is loaded once per content (its class is
kept, keyed by task folder and sha256 of grader.py) and instantiated afresh per trace; task.yaml is parsed per trace.
"""
from hashlib import sha256
from inspect import signature
from json import dumps, loads
from os import O_RDONLY, close, devnull, dup, dup2, environ, fdopen
from os import open as os_open
from pathlib import Path
from socket import getaddrinfo
from socket import socket as Socket
from traceback import extract_tb, format_exception_only
from types import SimpleNamespace
from urllib.parse import urlparse

SYS = __import__("sys")  # not an import line: this file sits in a TypeScript string the import scanner reads


def private_streams():
    """The protocol's own stdin/stdout; fd 1 then goes to stderr and fd 0 reads nothing, for graders and children."""
    proto_in = fdopen(dup(0), "r", encoding="utf-8")
    proto_out = fdopen(dup(1), "w", encoding="utf-8")
    dup2(2, 1)
    null = os_open(devnull, O_RDONLY)
    dup2(null, 0)
    close(null)
    SYS.stdout = SYS.stderr
    SYS.stdin = open(devnull, encoding="utf-8")
    return proto_in, proto_out


class Failed(Exception):
    """A trace that could not be graded: the stage, the file and the traceback's last line."""

    def __init__(self, stage, exc, file=None):
        tb = extract_tb(exc.__traceback__)
        where = file or (tb[-1].filename if tb else None)
        last = format_exception_only(type(exc), exc)[-1].strip()
        super().__init__(last)
        self.result = {"ok": False, "stage": stage, "file": where, "error": last}


def step(stage, file, fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - reported per trace, never raised past it
        raise Failed(stage, exc, file) from exc


def close_network(allowed_host):
    """Only the judge's host is reachable: a grader has no business on the network otherwise."""
    real_connect = Socket.connect

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if allowed_host is None or host not in allowed_host:
            raise PermissionError(f"network closed by CoworkEnv Studio (connection to {host!r})")
        return real_connect(self, address)

    Socket.connect = guarded


class StubJudge:
    """The same constant judge the app's own grading uses in comparisons: every judged part gets one score."""

    def __init__(self, score):
        self.score = float(score)
        self.calls = []

    def _result(self, method):
        self.calls.append({"method": method, "score": self.score})
        return SimpleNamespace(score=self.score, reasoning="stub judge")

    def evaluate(self, *a, **k):
        return self._result("evaluate")

    def evaluate_actions(self, *a, **k):
        return self._result("evaluate_actions")

    def evaluate_visual(self, *a, **k):
        return self._result("evaluate_visual")

    def get_call_log(self):
        return list(self.calls)


def judge_hosts(spec):
    """The judge's host and its addresses, resolved before the network closes (None: no host is reachable)."""
    if not spec or "stub_score" in spec:
        return None
    host = urlparse(spec["base_url"]).hostname
    allowed = set()
    if host:
        allowed.add(host)
        try:
            allowed.update(info[4][0] for info in getaddrinfo(host, None))
        except OSError:
            pass
    return allowed


def make_judge(spec):
    """A fresh judge per trace, so its call log counts that trace's calls only."""
    if not spec:
        return None
    if "stub_score" in spec:
        return StubJudge(spec["stub_score"])
    from claw_eval.graders.llm_judge import LLMJudge

    key = environ.get("COWORKENV_JUDGE_API_KEY", "")
    return LLMJudge(model_id=spec["model"], api_key=key, base_url=spec["base_url"])


class Upstream:
    """The checkout's loading and scoring functions, imported once, and the grader classes loaded so far."""

    def __init__(self, root):
        from claw_eval.graders.registry import get_grader
        from claw_eval.models.scoring import compute_task_score, is_pass
        from claw_eval.models.task import TaskDefinition
        from claw_eval.trace.reader import load_trace

        self.root = root
        self.get_grader = get_grader
        self.compute_task_score = compute_task_score
        self.is_pass = is_pass
        self.TaskDefinition = TaskDefinition
        self.load_trace = load_trace
        self.classes = {}

    def grader(self, task_id, task_dir):
        """A new instance per trace (no state carried between traces); grader.py is executed once per content."""
        try:
            digest = sha256((task_dir / "grader.py").read_bytes()).hexdigest()
        except OSError:
            digest = None  # get_grader names the missing file
        key = (str(task_dir), task_id, digest)
        cls = self.classes.get(key)
        if cls is not None:
            return cls()
        grader = self.get_grader(task_id, tasks_dir=str(self.root / "tasks"), task_dir=str(task_dir))
        if digest is not None:
            self.classes[key] = type(grader)
        return grader

    def grade(self, task_dir, trace, judge_spec):
        judge = step("judge", None, make_judge, judge_spec)
        task_yaml = task_dir / "task.yaml"
        task = step("load task.yaml", str(task_yaml), self.TaskDefinition.from_yaml, task_yaml)
        _start, messages, dispatches, media, _end, audit = step("load trace", trace, self.load_trace, trace)
        grader_py = str(task_dir / "grader.py")
        grader = step("load grader.py", grader_py, self.grader, task.task_id, task_dir)
        params = signature(grader.grade).parameters
        kwargs = {}
        if "audit_data" in params:
            kwargs["audit_data"] = audit
        if "judge" in params:
            kwargs["judge"] = judge
        if "media_events" in params:
            kwargs["media_events"] = media
        scores = step("grade", grader_py, grader.grade, messages, dispatches, task, **kwargs)
        # A grader that answers something other than DimensionScores fails here, not in the protocol.
        score = step("score", grader_py, self.compute_task_score, scores)
        passed = step("score", grader_py, self.is_pass, score)
        calls = judge.get_call_log() if judge is not None and hasattr(judge, "get_call_log") else []
        return {
            "ok": True,
            "completion": scores.completion,
            "safety": scores.safety,
            "robustness": scores.robustness,
            "score": score,
            "passed": passed,
            "judge_calls": len(calls),
        }


def main():
    proto_in, proto_out = private_streams()

    def emit(obj):
        proto_out.write(dumps(obj, ensure_ascii=False) + "\n")
        proto_out.flush()

    config = loads(proto_in.readline() or "{}")
    root = Path(config.get("root", ".")).resolve()
    SYS.path.insert(0, str(root / "src"))
    judge_spec = config.get("judge")
    upstream, broken = None, None
    try:
        upstream = Upstream(root)
    except Exception as exc:  # noqa: BLE001 - every request is answered with it
        broken = Failed("import claw_eval", exc, str(root / "src" / "claw_eval")).result
    try:
        allowed = judge_hosts(judge_spec)
    except Exception as exc:  # noqa: BLE001
        broken = broken or Failed("judge", exc).result
        allowed = None
    close_network(allowed)
    for line in iter(proto_in.readline, ""):
        if not line.strip():
            continue
        req = loads(line)
        if broken is not None:
            emit({"id": req["id"], **broken})
            continue
        try:
            result = upstream.grade(Path(req["task_dir"]).resolve(), req["trace"], judge_spec)
        except Failed as f:
            result = f.result
        emit({"id": req["id"], **result})


if __name__ == "__main__":
    main()
`;
