import fs from 'node:fs';
import type { ApiResult, Output, ProcedureName } from '../../shared/contract';

type Call = (name: ProcedureName, input: unknown) => Promise<ApiResult<unknown>>;
type Io = { json: boolean; out: (s: string) => void; err: (s: string) => void };
type ImportOut = Output<'trajectories.importTrace'>;
/** A word command that makes several calls itself, prints, and answers the exit code. */
export type RunCommand = (call: Call, io: Io) => Promise<number>;

/**
 * `traces import <file.jsonl>… [--task <id>]`: one trajectories.importTrace per file, each in its
 * own transaction, so one bad file is reported and the others are still stored (exit 1 then).
 * `traces export --id <n>`: the stored trace's bytes on stdout, nothing added.
 */
export function tracesCommand(rest: string[], o: { task?: string | undefined; id?: string | undefined }) {
  const usage = 'traces import <file.jsonl>… [--task <id>] | traces export --id <n> [> file.jsonl]';
  if (rest[0] === 'export') {
    const id = Number(o.id);
    if (rest.length !== 1 || o.id === undefined || !Number.isInteger(id) || id < 1)
      return { usage: o.id === undefined ? usage : `--id must be a trajectory id (a positive integer), not "${o.id}"` };
    return {
      procedure: 'trajectories.exportTrace' as const,
      input: { id },
      render: (data: unknown, out: (s: string) => void) => out((data as Output<'trajectories.exportTrace'>).traceJsonl),
    };
  }
  if (rest[0] !== 'import' || rest.length < 2) return { usage };
  const files: { file: string; text: string }[] = [];
  for (const file of rest.slice(1)) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      return { usage: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
    }
    if (!text.trim()) return { usage: `${file} is empty` };
    files.push({ file, text });
  }
  const task = o.task;
  return {
    procedure: 'trajectories.importTrace' as const,
    input: null,
    render: () => {},
    run: ((call, io) => importFiles(call, files, task, io)) satisfies RunCommand,
  };
}

async function importFiles(
  call: Call,
  files: { file: string; text: string }[],
  task: string | undefined,
  io: Io,
): Promise<number> {
  const n = { stored: 0, duplicate: 0, refused: 0 };
  for (const { file, text } of files) {
    const r = (await call('trajectories.importTrace', {
      traceJsonl: text,
      ...(task ? { taskId: task } : {}),
    })) as ApiResult<ImportOut>;
    if (io.json) io.out(`${JSON.stringify({ file, ...r })}\n`);
    if (!r.ok) {
      n.refused++;
      io.err(`${file}: error ${r.error.code}: ${r.error.message}\n`);
      // "file:line: message", the form editors and terminals link to the line.
      for (const i of r.error.issues ?? []) io.err(`  ${file}${lineOf(i.path)}: ${i.message}\n`);
      continue;
    }
    const d = r.data;
    n[d.duplicate ? 'duplicate' : 'stored']++;
    if (io.json) continue;
    const grade = d.graded ? `score ${d.score} — ${d.passed ? 'passed' : 'not passed'}` : 'ungraded';
    io.out(`${(d.duplicate ? 'duplicate' : 'stored').padEnd(9)} #${d.id} ${d.taskId}: ${grade}  (${file})\n`);
    for (const w of d.warnings) io.out(`          warning: ${w}\n`);
  }
  if (!io.json) io.out(`${n.stored} stored, ${n.duplicate} duplicates, ${n.refused} refused\n`);
  return n.refused ? 1 : 0;
}

const lineOf = (p: (string | number)[]) => {
  const m = /^line (\d+)$/.exec(String(p[1] ?? ''));
  return m ? `:${m[1]}` : '';
};
