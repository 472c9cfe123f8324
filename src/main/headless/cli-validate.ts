import type { ApiResult, ProcedureName } from '../../shared/contract';
import type { TaskRow } from '../../shared/contract/entities/task';
import type { Verdict } from '../../shared/contract/validation.contract';

type Call = (name: ProcedureName, input: unknown) => Promise<ApiResult<unknown>>;
type TaskOutcome = {
  taskId: string;
  status: TaskRow['validation_status'];
  failedValidator: string | null;
  failures: { validator: string; field: string; message: string }[];
};

export type ValidateCommand = {
  procedure: 'validation.run';
  input: { taskIds: string[] } | { all: true };
  /** Nothing to render from the job id: afterJob prints. */
  render(): void;
  /** After the job: print per task, answer the exit code (1 when the job failed or any task is not valid). */
  afterJob(call: Call, jobCode: number, o: { json: boolean; out: (s: string) => void }): Promise<number>;
};

/** Every `--task <id>` / `--task=<id>` of argv (parseArgs keeps only the last of a repeated option). */
export const taskFlags = (argv: readonly string[]): string[] =>
  argv.flatMap((a, i) =>
    a === '--task' && argv[i + 1] !== undefined
      ? [argv[i + 1]!]
      : a.startsWith('--task=')
        ? [a.slice('--task='.length)]
        : [],
  );

/** `validate --task <id>… | --all` (ids may also be given as words after validate). */
export function validateCommand(
  rest: string[],
  o: { tasks: string[]; all: boolean },
): ValidateCommand | { usage: string } {
  const ids = [...new Set([...o.tasks, ...rest])];
  if (o.all && ids.length) return { usage: 'validate takes --task <id>… or --all, not both' };
  if (!o.all && !ids.length) return { usage: 'validate --task <id> [--task <id>…] | --all [--json]' };
  return {
    procedure: 'validation.run',
    input: o.all ? { all: true } : { taskIds: ids },
    render: () => {},
    afterJob: (call, code, p) => summarise(call, o.all ? null : ids, code, p),
  };
}

async function allRows(call: Call): Promise<Pick<TaskRow, 'task_id' | 'validation_status' | 'failed_validator'>[]> {
  const rows: TaskRow[] = [];
  for (let offset = 0; ; offset += 5000) {
    const r = await call('tasks.list', { offset, limit: 5000 });
    if (!r.ok) throw new Error(r.error.message);
    const page = r.data as { rows: TaskRow[]; total: number };
    rows.push(...page.rows);
    if (rows.length >= page.total || !page.rows.length) return rows;
  }
}

async function outcome(call: Call, taskId: string): Promise<TaskOutcome> {
  const r = await call('validation.report', { taskId });
  if (!r.ok)
    return {
      taskId,
      status: 'unvalidated',
      failedValidator: null,
      failures: [{ validator: '-', field: '-', message: r.error.message }],
    };
  const rep = r.data as { status: TaskRow['validation_status']; rounds: { verdicts: Verdict[] }[] };
  const verdicts = rep.rounds.at(-1)?.verdicts ?? [];
  const failed = verdicts.filter((v) => v.status === 'fail');
  return {
    taskId,
    status: rep.status,
    failedValidator: failed[0]?.validator ?? null,
    failures: failed.flatMap((v) => v.messages.map((m) => ({ validator: v.validator, ...m }))),
  };
}

async function summarise(
  call: Call,
  ids: string[] | null,
  jobCode: number,
  o: { json: boolean; out: (s: string) => void },
): Promise<number> {
  // Valid tasks need no report read: their status says all.
  const rows = ids ? null : await allRows(call);
  const tasks: TaskOutcome[] = [];
  for (const id of ids ?? rows!.map((r) => r.task_id)) {
    const row = rows?.find((r) => r.task_id === id);
    tasks.push(
      row?.validation_status === 'valid'
        ? { taskId: id, status: 'valid', failedValidator: null, failures: [] }
        : await outcome(call, id),
    );
  }
  const count = (s: TaskOutcome['status']) => tasks.filter((t) => t.status === s).length;
  const counts = { valid: count('valid'), invalid: count('invalid'), unvalidated: count('unvalidated') };
  const code = jobCode !== 0 || counts.invalid > 0 || counts.unvalidated > 0 ? 1 : 0;
  if (o.json) {
    o.out(`${JSON.stringify({ ok: code === 0, data: { jobCompleted: jobCode === 0, ...counts, tasks } })}\n`);
    return code;
  }
  for (const t of tasks) {
    o.out(`${t.status.padEnd(11)} ${t.taskId}${t.failedValidator ? `  (${t.failedValidator} failed)` : ''}\n`);
    for (const f of t.failures) o.out(`            ${f.validator} ${f.field}: ${f.message}\n`);
  }
  o.out(
    `${tasks.length} task(s): ${counts.valid} valid, ${counts.invalid} invalid${counts.unvalidated ? `, ${counts.unvalidated} not validated` : ''}${jobCode !== 0 ? '; the validation job did not finish' : ''}\n`,
  );
  return code;
}
