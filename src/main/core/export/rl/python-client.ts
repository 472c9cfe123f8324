/**
 * The minimal Python client of the env server (urllib only), shipped as coworkenv_verl/client.py
 * and printed in the package README. Run as a script it steps a list of calls through one episode
 * and prints the grade: test/export/ runs exactly the README's copy against a live server.
 */
export const PYTHON_CLIENT =
  `"""Minimal client of the CoworkEnv environment server (protocol coworkenv-env/1). ` +
  `Standard library only."""
from json import dumps, loads
from urllib import error as urlerror
from urllib import request as urlrequest

DEFAULT_URL = "http://127.0.0.1:8765"


class EnvError(RuntimeError):
    """The server answered an error: HTTP status, a stable code and a message."""

    def __init__(self, status, code, message):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class EnvClient:
    def __init__(self, base_url=DEFAULT_URL, timeout=30.0):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def _call(self, method, path, body=None):
        data = None if body is None else dumps(body).encode("utf-8")
        req = urlrequest.Request(
            self.base_url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urlrequest.urlopen(req, timeout=self.timeout) as res:
                return loads(res.read().decode("utf-8"))
        except urlerror.HTTPError as e:
            try:
                err = loads(e.read().decode("utf-8"))["error"]
            except Exception:
                err = {"code": "http_error", "message": str(e)}
            raise EnvError(e.code, err.get("code"), err.get("message")) from None

    def info(self):
        return self._call("GET", "/")

    def tasks(self):
        return self._call("GET", "/tasks")["tasks"]

    def create(self, task_id, seed=0, **options):
        """A fresh episode of the task. options: clock (ISO), mode ("parity"|"fixed"), error_rate, package_id."""
        return self._call("POST", "/episodes", {"task_id": task_id, "seed": seed, **options})

    def step(self, episode_id, tool, arguments=None):
        """One tool call; arguments is the model's object (or its raw JSON string). Returns text, status, is_error."""
        return self._call("POST", f"/episodes/{episode_id}/step", {"tool": tool, "arguments": arguments or {}})

    def grade(self, episode_id, final_text=None, fallback_final_text=None):
        """The shared grader on the episode so far: score, completion, safety, robustness, per-check detail."""
        body = {}
        if final_text is not None:
            body["final_text"] = final_text
        if fallback_final_text is not None:
            body["fallback_final_text"] = fallback_final_text
        return self._call("POST", f"/episodes/{episode_id}/grade", body)

    def reply(self, episode_id, text, ask_user=True):
        """Records the model's answer as the episode's final text; with ask_user, the simulated user's turn:
        {done, user, rounds}."""
        return self._call("POST", f"/episodes/{episode_id}/reply", {"text": text, "ask_user": ask_user})

    def close(self, episode_id):
        return self._call("DELETE", f"/episodes/{episode_id}")


if __name__ == "__main__":
    # python client.py URL TASK_ID CALLS.json [FINAL_TEXT]
    # CALLS.json: [{"tool": "...", "args": {...}}, ...]; prints one line per step, then the grade.
    from sys import argv

    url, task_id, calls_file = argv[1:4]
    final_text = argv[4] if len(argv) > 4 else ""
    env = EnvClient(url)
    episode = env.create(task_id)
    eid = episode["episode_id"]
    with open(calls_file, encoding="utf-8") as f:
        calls = loads(f.read())
    try:
        for call in calls:
            r = env.step(eid, call["tool"], call.get("args", {}))
            print(dumps({"tool": call["tool"], "status": r["status"], "is_error": r["is_error"], "text": ` +
  `r["text"]}, ensure_ascii=False))
        g = env.grade(eid, final_text)
        keys = ("score", "passed", "completion", "safety", "robustness")
        print(dumps({k: g[k] for k in keys} | {"checks": {c["id"]: c["score"] for c in g["checks"]}}))
    finally:
        env.close(eid)
`;
