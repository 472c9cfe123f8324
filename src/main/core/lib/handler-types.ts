import type { Contract, Output, ParsedInput, ProcedureName } from '../../../shared/contract';
import type { MutationContext, QueryContext } from '../context';

/** Mutations get the write handle; queries and job starts get a handle that only reads. */
export type ContextOf<N extends ProcedureName> = Contract[N]['kind'] extends 'mutation'
  ? MutationContext
  : QueryContext;

/**
 * A mutation in two stages, for work that reads files or parses large input. `prepare` runs
 * before the write transaction, on the read handle: it may be async, it reads and parses, it never
 * writes. `write` gets its result inside the one synchronous write transaction. Hazard: the
 * workspace may change between the two (another process, a job): `write` re-reads what it decides
 * on (existing rows, versions) instead of trusting what `prepare` saw.
 */
export type PreparedMutation<N extends ProcedureName, P> = {
  prepare(input: ParsedInput<N>, ctx: QueryContext): P | Promise<P>;
  write(input: ParsedInput<N>, prepared: P, ctx: MutationContext): Output<N>;
};

/** `preparedMutation<'tasks.import'>()({ prepare, write })`: names the procedure, infers what prepare answers. */
export const preparedMutation =
  <N extends ProcedureName>() =>
  <P>(h: PreparedMutation<N, P>): PreparedMutation<N, P> =>
    h;

/** A PreparedMutation of any prepared type (prepare's answer is only ever handed to its own write). */
type SomePreparedMutation<N extends ProcedureName> = {
  prepare(input: ParsedInput<N>, ctx: QueryContext): unknown;
  write(input: ParsedInput<N>, prepared: never, ctx: MutationContext): Output<N>;
};

/**
 * One handler per procedure, typed from the contract. Mutation handlers are synchronous (they run
 * inside a better-sqlite3 transaction, which cannot span an await), or a PreparedMutation whose
 * `prepare` does the slow reading first.
 */
export type Handler<N extends ProcedureName> = Contract[N]['kind'] extends 'mutation'
  ? ((input: ParsedInput<N>, ctx: MutationContext) => Output<N>) | SomePreparedMutation<N>
  : (input: ParsedInput<N>, ctx: QueryContext) => Output<N> | Promise<Output<N>>;
export type HandlerMap = { [N in ProcedureName]: Handler<N> };
