/**
 * The Python side of upstream grading (run-upstream.ts passes it to `python3 -c`): loads the user's Claw-Eval
 * checkout and grades one trace with the task's own grader.py. Its docstring is the stdin/stdout protocol.
 */
export const DRIVER_PY = String.raw`#!/usr/bin/env python3
"""Grades one Claw-Eval trace with the task's own grader.py from the user's Claw-Eval checkout.

CoworkEnv Studio runs this as a time-limited subprocess (src/main/core/upstream-grader/). Protocol:
  stdin   one JSON object: {"root": checkout, "task_dir": folder holding task.yaml and grader.py,
          "trace": path of the trace JSONL, "judge": null | {"stub_score": x} | {"model": m, "base_url": u}}
  stdout  exactly one JSON line, the last: {"ok": true, "completion", "safety", "robustness", "score", "passed",
          "judge_calls"} or {"ok": false, "stage", "file", "error"} (error = the traceback's last line).
Anything the grader prints goes to stderr. The judge key, when a real judge is configured, comes from the
COWORKENV_JUDGE_API_KEY environment variable, never from stdin. The network is closed except to the judge's host.
Loading and scoring follow upstream's own code: claw_eval.trace.reader.load_trace, graders.registry.get_grader
(optional grade() keywords passed only when its signature names them), models.scoring.compute_task_score.
"""
from inspect import signature
from json import dumps, loads
from os import environ
from socket import getaddrinfo
from socket import socket as Socket
from sys import exit as sys_exit
from sys import path as sys_path
from sys import stdin, stderr, stdout
from traceback import extract_tb, format_exception_only
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlparse

REAL_STDOUT = stdout


def emit(obj):
    REAL_STDOUT.write(dumps(obj, ensure_ascii=False) + "\n")
    REAL_STDOUT.flush()


def fail(stage, exc, file=None):
    tb = extract_tb(exc.__traceback__)
    where = file or (tb[-1].filename if tb else None)
    last = format_exception_only(type(exc), exc)[-1].strip()
    emit({"ok": False, "stage": stage, "file": where, "error": last})
    sys_exit(1)


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


def make_judge(spec):
    if not spec:
        return None, None
    if "stub_score" in spec:
        return StubJudge(spec["stub_score"]), None
    from claw_eval.graders.llm_judge import LLMJudge

    key = environ.get("COWORKENV_JUDGE_API_KEY", "")
    host = urlparse(spec["base_url"]).hostname
    allowed = set()
    if host:
        allowed.add(host)
        try:
            allowed.update(info[4][0] for info in getaddrinfo(host, None))
        except OSError:
            pass
    return LLMJudge(model_id=spec["model"], api_key=key, base_url=spec["base_url"]), allowed


def sys_module():
    return __import__("sys")


def main():
    req = loads(stdin.read())
    root = Path(req["root"]).resolve()
    task_dir = Path(req["task_dir"]).resolve()
    sys_path.insert(0, str(root / "src"))
    sys_module().stdout = stderr  # graders print; the protocol line must stay alone on stdout
    try:
        from claw_eval.graders.registry import get_grader
        from claw_eval.models.scoring import compute_task_score, is_pass
        from claw_eval.models.task import TaskDefinition
        from claw_eval.trace.reader import load_trace
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        fail("import claw_eval", exc, str(root / "src" / "claw_eval"))
    try:
        judge, allowed = make_judge(req.get("judge"))
    except Exception as exc:  # noqa: BLE001
        fail("judge", exc)
    close_network(allowed)
    task_yaml = task_dir / "task.yaml"
    try:
        task = TaskDefinition.from_yaml(task_yaml)
    except Exception as exc:  # noqa: BLE001
        fail("load task.yaml", exc, str(task_yaml))
    try:
        _start, messages, dispatches, media, _end, audit = load_trace(req["trace"])
    except Exception as exc:  # noqa: BLE001
        fail("load trace", exc, req["trace"])
    grader_py = task_dir / "grader.py"
    try:
        grader = get_grader(task.task_id, tasks_dir=str(root / "tasks"), task_dir=str(task_dir))
    except Exception as exc:  # noqa: BLE001
        fail("load grader.py", exc, str(grader_py))
    params = signature(grader.grade).parameters
    kwargs = {}
    if "audit_data" in params:
        kwargs["audit_data"] = audit
    if "judge" in params:
        kwargs["judge"] = judge
    if "media_events" in params:
        kwargs["media_events"] = media
    try:
        scores = grader.grade(messages, dispatches, task, **kwargs)
    except Exception as exc:  # noqa: BLE001
        fail("grade", exc, str(grader_py))
    try:  # a grader that answers something other than DimensionScores fails here, not in the protocol
        score = compute_task_score(scores)
        passed = is_pass(score)
    except Exception as exc:  # noqa: BLE001
        fail("score", exc, str(grader_py))
    calls = judge.get_call_log() if judge is not None and hasattr(judge, "get_call_log") else []
    emit({
        "ok": True,
        "completion": scores.completion,
        "safety": scores.safety,
        "robustness": scores.robustness,
        "score": score,
        "passed": passed,
        "judge_calls": len(calls),
    })


if __name__ == "__main__":
    main()
`;
