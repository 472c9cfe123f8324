import type { TaskRow } from '../../../shared/contract/entities/task';
import type { Verdict } from '../../../shared/contract/validation.contract';
import { bool, defineCommand, strs, type RunContext } from '../cli/command';

type Call = RunContext['call'];
type TaskOutcome = {
  taskId: string;
  status: TaskRow['validation_status'];
  failedValidator: string | null;
  failures: { validator: string; field: string; message: string }[];
};

/** `validate --task <id>… | --all`: the validation job, then each task's status and failed verdicts. */
export const validateCommand = defineCommand({
  words: ['validate'],
  args: '[<task id>…]',
  summary: 'validate stored tasks (a job); per task its status and failed verdicts',
  options: {
    task: { type: 'string', multiple: true, value: 'ID', description: 'a task to validate (repeatable)' },
    all: { type: 'boolean', description: 'validate every task' },
  },
  details: ['Exit code 1 when any task is not valid or the job did not finish.'],
  async run({ positionals, flags }, ctx) {
    const ids = [...new Set([...strs(flags, 'task'), ...positionals])];
    const all = bool(flags, 'all');
    if (all && ids.length) return ctx.usage('validate takes --task <id>… or --all, not both');
    if (!all && !ids.length) return ctx.usage('validate --task <id> [--task <id>…] | --all [--json]');
    const started = await ctx.call('validation.run', all ? { all: true } : { taskIds: ids });
    if (!started.ok) return ctx.print(started);
    const job = await ctx.followJob(started.data.jobId);
    return summarise(ctx.call, all ? null : ids, job.state === 'done' ? 0 : 1, ctx);
  },
});

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
    `${tasks.length} task(s): ${counts.valid} valid, ${counts.invalid} invalid` +
      (counts.unvalidated ? `, ${counts.unvalidated} not validated` : '') +
      `${jobCode !== 0 ? '; the validation job did not finish' : ''}\n`,
  );
  return code;
}
