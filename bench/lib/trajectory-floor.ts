/**
 * The floor of an import's writes: the same rows, bodies and search texts the import stores, written
 * to a fresh workspace by one connection with the job's pragmas, timing nothing but SQLite. Each
 * batch (8 MB of lines, as the import's) is read and prepared untimed (JSON.parse, sha256, counts,
 * the search text of search-text.ts), then written in two timed transactions: the rows and bodies,
 * then the search texts. No parsing, grading, curation or hand-over between threads is timed, so
 * this is what one SQLite writer needs however the import is organised.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { openDb } from '../../src/main/core/db/sqlite';
import { indexForSearch } from '../../src/main/core/trajectories/search-text';

const BATCH_BYTES = 8 * 1024 * 1024;
const NOW = '2026-03-01T09:00:00.000Z';

export type Floor = { rowsMs: number; ftsMs: number; rows: number };

type Row = {
  task: string;
  trial: number;
  reward: number | null;
  hash: string;
  messages: number;
  calls: number;
  chars: number;
  raw: Buffer;
  line: number;
  text: string;
};

// biome-ignore lint/suspicious/noExplicitAny: corpus records, read loosely like the Python baseline
const counts = (messages: any[]) => {
  let calls = 0;
  let chars = 0;
  for (const m of messages) {
    chars += (m.content ?? '').length;
    for (const c of m.role === 'assistant' ? (m.tool_calls ?? []) : []) {
      calls++;
      chars += c.function.arguments.length;
    }
  }
  return { calls, chars };
};

/** Writes `file`'s records into the empty workspace `ws` (made by the caller) and answers the SQLite times. */
export function sqliteFloor(ws: string, file: string): Floor {
  const db = openDb(ws, { check: false });
  // The job worker's pragmas (src/main/job-worker.ts).
  db.pragma('wal_autocheckpoint = 16384');
  db.pragma('journal_size_limit = 67108864');
  db.exec(
    `INSERT INTO collections (name, supersedes, description, created_at, updated_at) VALUES ('bench', '[]', '', ` +
      `'${NOW}', '${NOW}')`,
  );
  const insertRow = db.prepare(
    `INSERT INTO trajectories (task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id,
       source_reward, source_success, trial, collection, external, valid, message_count, tool_call_count, char_count,
       graded, created_at)
     VALUES (?, ?, ?, '', 'unknown', 'import', 'messages-jsonl', ?, ?, ?, ?, 'bench', 1, 1, ?, ?, ?, 0, ?)`,
  );
  const insertBody = db.prepare('INSERT INTO trajectory_bodies (trajectory_id, raw, file, line) VALUES (?, ?, ?, ?)');
  const insertText = db.prepare('INSERT INTO trajectories_fts (rowid, text) VALUES (?, ?)');
  const out: Floor = { rowsMs: 0, ftsMs: 0, rows: 0 };

  const write = (batch: Row[]) => {
    const ids: number[] = [];
    let t = performance.now();
    db.transaction(() => {
      for (const r of batch) {
        const success = r.reward === null ? null : Math.abs(r.reward - 1) <= 1e-6 ? 1 : 0;
        const id = insertRow.run(
          r.task,
          `messages-jsonl/${r.task}/${r.trial}`,
          r.hash,
          r.task,
          r.reward,
          success,
          r.trial,
          r.messages,
          r.calls,
          r.chars,
          NOW,
        ).lastInsertRowid;
        insertBody.run(id, r.raw, file, r.line);
        ids.push(Number(id));
      }
      db.exec('DELETE FROM curation_dirty');
    }).immediate();
    out.rowsMs += performance.now() - t;
    t = performance.now();
    db.transaction(() => batch.forEach((r, i) => insertText.run(ids[i], r.text))).immediate();
    out.ftsMs += performance.now() - t;
    out.rows += batch.length;
  };

  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  let buf = Buffer.alloc(0);
  let line = 0;
  let batch: Row[] = [];
  let bytes = 0;
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (!n) break;
    buf = buf.length ? Buffer.concat([buf, chunk.subarray(0, n)]) : Buffer.from(chunk.subarray(0, n));
    let s = 0;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, s)) {
      line++;
      const raw = Buffer.from(buf.subarray(s, i));
      const rec = JSON.parse(raw.toString('utf8'));
      batch.push({
        task: String(rec.task_id),
        trial: rec.trial ?? 0,
        reward: rec.reward ?? null,
        hash: createHash('sha256').update(raw).digest('hex'),
        messages: rec.messages.length,
        ...counts(rec.messages),
        raw,
        line,
        text: indexForSearch(rec),
      });
      bytes += raw.length;
      s = i + 1;
      if (bytes >= BATCH_BYTES) {
        write(batch);
        batch = [];
        bytes = 0;
      }
    }
    buf = buf.subarray(s);
  }
  if (batch.length) write(batch);
  fs.closeSync(fd);
  db.close();
  return out;
}
