import type { z } from 'zod';
import { fieldName, issuePath } from '../../../shared/contract/issue-path';
import { contract, isProcedureName, type ApiResult, type ProcedureName } from '../../../shared/contract';
import type { MutationContext, QueryContext } from '../context';
import { readHandle, writeHandle, type Db } from '../db/sqlite';
import { bumpTableVersion } from '../events/change-watcher';
import { damaged } from '../db/workspace-file';
import { AppError } from '../lib/errors';
import { redactErrorResult } from '../lib/redact';
import { COMMIT_HOOKS } from './commit-hooks';
import { handlers } from './handlers';

const zodIssues = (err: z.ZodError) => err.issues.map((i) => ({ path: issuePath(i.path), message: i.message }));

const describeIssues = (issues: { path: (string | number)[]; message: string }[]) =>
  issues
    .slice(0, 3)
    .map((i) => `${fieldName(i.path)}: ${i.message}`)
    .join('; ');

export type DispatchOptions = { checkOutput?: boolean };

/**
 * validate input → run (mutations in one write transaction) → (optionally) validate output →
 * envelope. Never throws: every failure becomes { ok: false, error }.
 */
/** What the dispatcher is built on: the raw connection it owns, and what every handler gets. */
export type DispatchBase = Omit<QueryContext, 'db'> & { db: Db };

export function createDispatch(base: DispatchBase, opts: DispatchOptions = {}) {
  const queryContext: QueryContext = { ...base, db: readHandle(base.db) };
  // Error messages quote inputs and upstream answers: a pasted key must not travel back in one.
  return async function dispatch(name: string, rawInput: unknown): Promise<ApiResult<unknown>> {
    return redactErrorResult(await settle(name, rawInput));
  };

  async function settle(name: string, rawInput: unknown): Promise<ApiResult<unknown>> {
    try {
      if (!isProcedureName(name))
        throw new AppError('UNKNOWN_PROCEDURE', `unknown procedure "${name}"; \`coworkenv procedures\` lists them`);
      const def = contract[name];
      const parsed = def.input.safeParse(rawInput ?? {});
      if (!parsed.success) {
        const issues = zodIssues(parsed.error);
        throw new AppError('INVALID_INPUT', `invalid input for ${name}: ${describeIssues(issues)}`, issues);
      }
      const data =
        def.kind === 'query'
          ? await runQuery(name, parsed.data)
          : def.kind === 'mutation'
            ? await runMutation(name, parsed.data)
            : runJob(name, parsed.data);
      if (opts.checkOutput) {
        const out = def.output.safeParse(data);
        if (!out.success)
          throw new AppError(
            'INTERNAL',
            `handler for ${name} answered an invalid output: ${describeIssues(zodIssues(out.error))}`,
          );
      }
      return { ok: true, data };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, error: err.toBody() };
      if (isBusy(err)) return { ok: false, error: { code: 'BUSY', message: busyMessage(base.db, name) } };
      // Large workspaces are not scanned on open (db/sqlite.ts): a damaged page surfaces here.
      if ((err as { code?: string }).code === 'SQLITE_CORRUPT')
        return { ok: false, error: damaged(base.workspacePath, (err as Error).message).toBody() };
      if ((err as { code?: string }).code === 'SQLITE_READONLY') {
        return {
          ok: false,
          error: { code: 'READ_ONLY', message: `workspace ${base.workspacePath} is read-only; nothing was written` },
        };
      }
      base.logger.error('procedure failed', { name, error: (err as Error).stack ?? String(err) });
      return { ok: false, error: { code: 'INTERNAL', message: `${name} failed: ${(err as Error).message}` } };
    }
  }

  function runQuery(name: ProcedureName, input: unknown) {
    const h = handlers[name] as (i: unknown, c: QueryContext) => unknown;
    return h(input, queryContext);
  }

  /**
   * Job starts run outside a transaction: the worker opens its own connection and must see the
   * job row committed before it looks for it.
   */
  function runJob(name: ProcedureName, input: unknown) {
    checkWritable(name);
    const h = handlers[name] as (i: unknown, c: QueryContext) => unknown;
    const out = h(input, queryContext);
    base.events.emit('table.changed', { table: 'jobs' });
    return out;
  }

  /** A mutation with a prepare stage reads and parses first, outside the transaction, then writes briefly. */
  async function runMutation(name: ProcedureName, input: unknown) {
    const h = handlers[name] as
      | ((i: unknown, c: MutationContext) => unknown)
      | { prepare(i: unknown, c: QueryContext): unknown; write(i: unknown, p: unknown, c: MutationContext): unknown };
    if (typeof h === 'function') return runWrite(name, (ctx) => h(input, ctx));
    checkWritable(name);
    const prepared = await h.prepare(input, queryContext);
    return runWrite(name, (ctx) => h.write(input, prepared, ctx));
  }

  function checkWritable(name: ProcedureName) {
    if (base.readOnly)
      throw new AppError('READ_ONLY', `workspace ${base.workspacePath} is read-only; ${name} was not run`);
  }

  /** Mutations: one synchronous transaction, then announce what changed. */
  function runWrite(name: ProcedureName, run: (ctx: MutationContext) => unknown) {
    checkWritable(name);
    const touched = new Map<string, Set<number> | undefined>();
    const ctx: MutationContext = {
      ...base,
      db: writeHandle(base.db),
      touch(table, ids) {
        const prev = touched.has(table) ? touched.get(table) : new Set<number>();
        if (!ids || prev === undefined) touched.set(table, undefined);
        else touched.set(table, new Set([...prev, ...ids]));
      },
    };
    // IMMEDIATE: take the write lock up front. A deferred transaction that reads first and then
    // writes fails at once with SQLITE_BUSY (no busy wait) when a job worker committed in between.
    const data = base.db
      .transaction(() => {
        const out = run(ctx);
        if (out instanceof Promise)
          throw new AppError('INTERNAL', `${name} is declared ${contract[name].kind} but its handler is async`);
        for (const hook of COMMIT_HOOKS) for (const table of hook(ctx.db, base.now())) ctx.touch(table);
        for (const table of touched.keys()) bumpTableVersion(base.db, table);
        return out;
      })
      .immediate();
    for (const [table, ids] of touched) {
      // Large id lists are not worth shipping: a grid refetches its visible block anyway.
      base.events.emit('table.changed', ids && ids.size <= 500 ? { table, ids: [...ids] } : { table });
    }
    return data;
  }
}
export type Dispatch = ReturnType<typeof createDispatch>;

const isBusy = (err: unknown) => /^SQLITE_BUSY/.test((err as { code?: string }).code ?? '');

/**
 * BUSY: another connection held the write lock for the whole busy timeout. Say what holds it when
 * we can tell (a running job is in the jobs table; reads still work while another process writes).
 */
function busyMessage(db: Db, name: string): string {
  let what = "another process's write (the app, a CLI command or a job)";
  try {
    const job = db
      .prepare("SELECT name FROM jobs WHERE state IN ('queued', 'running') ORDER BY updated_at DESC")
      .get() as { name: string } | undefined;
    if (job) what = `a running ${job.name} job or another process's write`;
  } catch {
    // The jobs table is unreadable too: keep the general wording.
  }
  return `the workspace is busy with ${what}, try again: ${name} waited for the write lock and wrote nothing`;
}
