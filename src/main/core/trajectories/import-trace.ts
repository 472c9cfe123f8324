import { appRowScores } from './row-scores';
import type { Output, ParsedInput } from '../../../shared/contract';
import type { MutationContext, QueryContext } from '../context';
import type { ReadDb } from '../db/sqlite';
import { AppError } from '../lib/errors';
import { preparedMutation } from '../lib/handler-types';
import { tasksRepo } from '../tasks/tasks.repo';
import { writeTrace } from '../traces';
import { readRecord, TraceRecordError } from './formats';
import { prepareRecord, taskLookup } from './import/prepare';
import { collectionsWriter } from './collections.repo';
import { supersession } from './supersede';
import { trajectoriesWriter } from './trajectories-writer.repo';
import { trajectoriesRepo } from './trajectories.repo';

type Input = ParsedInput<'trajectories.importTrace'>;

/** An unpaired UTF-16 surrogate: text that no UTF-8 file holds (storing it would change it to U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Byte-exact storage needs text that encodes to UTF-8 as it is: refuse the first line that does not. */
function assertEncodable(text: string): void {
  if (!LONE_SURROGATE.test(text)) return;
  const line = text.split('\n').findIndex((l) => LONE_SURROGATE.test(l)) + 1;
  const message = 'an unpaired surrogate (\\ud800–\\udfff): not text a UTF-8 file can hold';
  throw new AppError('INVALID_INPUT', `not a readable Claw-Eval trace: line ${line}: ${message}`, [
    { path: ['traceJsonl', `line ${line}`], message },
  ]);
}

/** The row to store, graded against the task as it is in `db`. */
function prepareRow(input: Input, db: ReadDb, read: ReturnType<typeof readRecord>, raw: Buffer) {
  return prepareRecord(raw, read, {
    collection: input.collection,
    runId: null,
    contextId: null,
    file: null,
    line: null,
    taskId: input.taskId ?? null,
    agent: null,
    spec: taskLookup(db),
  });
}

/**
 * Outside the write transaction: check, read and grade the trace (a large one takes seconds, and
 * other writers would wait or fail BUSY meanwhile), and compare it with what upstream writes.
 */
function prepare(input: Input, ctx: QueryContext) {
  assertEncodable(input.traceJsonl);
  let read: ReturnType<typeof readRecord>;
  try {
    read = readRecord('claw-eval-trace', input.traceJsonl, { file: null, header: null });
  } catch (err) {
    if (!(err instanceof TraceRecordError)) throw err;
    throw new AppError(
      'INVALID_INPUT',
      `not a readable Claw-Eval trace: ${err.message}`,
      err.issues.map((i) => ({ path: ['traceJsonl', `line ${i.line}`], message: i.message })),
    );
  }
  const raw = Buffer.from(input.traceJsonl, 'utf8');
  const prepared = prepareRow(input, ctx.db, read, raw);
  // Not an error: upstream's reader normalises the same things; the user should know the stored Trajectory differs.
  const normalised = writeTrace(read.trajectory) !== input.traceJsonl;
  return { read, raw, prepared, taskHash: tasksRepo(ctx.db).hashOf(prepared.row.taskId)?.hash ?? null, normalised };
}

type Prepared = ReturnType<typeof prepare>;

/** Inside the transaction: the task and the duplicate are read again (another writer may have changed them). */
function write(input: Input, p: Prepared, ctx: MutationContext): Output<'trajectories.importTrace'> {
  const now = ctx.now();
  const taskNow = tasksRepo(ctx.db).hashOf(p.prepared.row.taskId)?.hash ?? null;
  const prepared = taskNow === p.taskHash ? p.prepared : prepareRow(input, ctx.db, p.read, p.raw);
  collectionsWriter(ctx.db).ensureCollection(input.collection, [], now);
  const warnings = [...prepared.warnings];
  const r = prepared.row;
  const stored = trajectoriesWriter(ctx.db).insert(r, now);
  if (stored.duplicate) {
    const prev = trajectoriesRepo(ctx.db).row(stored.id)!;
    if (input.taskId && input.taskId !== prev.task_id)
      warnings.push(
        `this trace is already stored as trajectory #${prev.id} of task ${prev.task_id}; ` +
          `--task ${input.taskId} was not applied`,
      );
    return {
      id: prev.id,
      taskId: prev.task_id,
      graded: prev.graded,
      score: prev.score,
      passed: prev.passed,
      warnings,
      duplicate: true,
    };
  }
  if (r.external) warnings.push(`task ${r.taskId} is not in the workspace: the trajectory is stored ungraded`);
  if (p.normalised)
    warnings.push(
      'the trace is not byte-for-byte what upstream writes; it is exported exactly as imported, but the stored ' +
        'trajectory writes it back normalised',
    );
  supersession(ctx.db).afterInsert(input.collection, [r.taskId]);
  ctx.touch('trajectories', [stored.id]);
  return {
    id: stored.id,
    taskId: r.taskId,
    graded: r.grade !== null,
    // The row's app score: null while a judge is pending (row-scores.ts), as the stored duplicate answers it.
    score: r.grade ? appRowScores(r.grade).score : null,
    passed: r.grade ? appRowScores(r.grade).passed : null,
    warnings,
    duplicate: false,
  };
}

/**
 * trajectories.importTrace: one trace, read and graded in `prepare`; the write transaction only
 * checks for a duplicate and inserts. The text is kept as it came, so an export is byte-identical.
 */
export const importTrace = preparedMutation<'trajectories.importTrace'>()({ prepare, write });
