"""Baseline for bench/trajectory-import.bench.ts: a plain Python json + sqlite3 import of a messages
JSONL into the same workspace tables our import writes (trajectories, trajectory_bodies and the
trajectories_fts search index), with the same per-record work (sha256 of the line, counts, the
search text) and batched commits. No grading, no normalisation to the canonical shape, no bad-input
reporting beyond skipping: it is the floor a straightforward script would reach.

    python3 bench/trajectory-import-baseline.py <workspace.coworkenv.db> <file.jsonl>

Prints one JSON line: {"ms": …, "stored": …}.
"""
import hashlib
import json
import sqlite3
import sys
import time

BATCH = 2000
NOW = "2026-03-01T09:00:00.000Z"


def search_text(messages):
    parts = []
    for m in messages:
        role = m.get("role")
        if role in ("user", "assistant"):
            if m.get("content"):
                parts.append(m["content"])
            for c in m.get("tool_calls") or []:
                parts.append(c["function"]["name"] + " " + c["function"]["arguments"])
        elif role == "tool" and m.get("is_error") and m.get("content"):
            parts.append(m["content"])
    return "\n".join(parts)


def main():
    workspace, path = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(workspace, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute(
        "INSERT OR IGNORE INTO collections (name, supersedes, description, created_at, updated_at) VALUES ('bench', '[]', '', ?, ?)",
        (NOW, NOW),
    )
    next_id = (db.execute("SELECT coalesce(max(id), 0) FROM trajectories").fetchone()[0] or 0) + 1
    rows, bodies, texts = [], [], []
    stored = 0

    def flush():
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            """INSERT INTO trajectories (id, task_id, trace_id, content_hash, model, agent, source, source_format,
                 source_task_id, source_reward, source_success, run_id, trial, collection, external, valid,
                 message_count, tool_call_count, char_count, tokens, duration_ms, error, graded, created_at)
               VALUES (?, ?, ?, ?, '', 'unknown', 'import', 'messages-jsonl', ?, ?, ?, NULL, ?, 'bench', 1, 1,
                 ?, ?, ?, NULL, NULL, NULL, 0, ?)""",
            rows,
        )
        db.executemany("INSERT INTO trajectory_bodies (trajectory_id, raw, file, line) VALUES (?, ?, ?, ?)", bodies)
        db.executemany("INSERT INTO trajectories_fts (rowid, text) VALUES (?, ?)", texts)
        db.execute("COMMIT")
        rows.clear()
        bodies.clear()
        texts.clear()

    t0 = time.perf_counter()
    with open(path, "rb") as f:
        for line_no, line in enumerate(f, 1):
            line = line.rstrip(b"\r\n")
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                messages = r["messages"]
            except (ValueError, KeyError, TypeError):
                continue
            calls = 0
            chars = 0
            for m in messages:
                chars += len(m.get("content") or "")
                if m.get("role") == "assistant":
                    for c in m.get("tool_calls") or []:
                        calls += 1
                        chars += len(c["function"]["arguments"])
            reward = r.get("reward")
            task = str(r.get("task_id"))
            trial = r.get("trial") or 0
            rid = next_id + stored
            success = None if reward is None else int(abs(reward - 1) <= 1e-6)
            rows.append(
                (rid, task, f"messages-jsonl/{task}/{trial}", hashlib.sha256(line).hexdigest(), task, reward, success,
                 trial, len(messages), calls, chars, NOW)
            )
            bodies.append((rid, line, path, line_no))
            texts.append((rid, search_text(messages)))
            stored += 1
            if len(rows) >= BATCH:
                flush()
    if rows:
        flush()
    ms = (time.perf_counter() - t0) * 1000
    print(json.dumps({"ms": ms, "stored": stored}))


if __name__ == "__main__":
    main()
