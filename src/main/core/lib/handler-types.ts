import type { Contract, Output, ParsedInput, ProcedureName } from '../../../shared/contract';
import type { MutationContext, QueryContext } from '../context';

/** Mutations get the write handle; queries and job starts get a handle that only reads. */
export type ContextOf<N extends ProcedureName> = Contract[N]['kind'] extends 'mutation'
  ? MutationContext
  : QueryContext;

/**
 * One handler per procedure, typed from the contract. Mutation handlers must be synchronous:
 * they run inside a better-sqlite3 transaction, which cannot span an await.
 */
export type Handler<N extends ProcedureName> = (
  input: ParsedInput<N>,
  ctx: ContextOf<N>,
) => Output<N> | Promise<Output<N>>;
export type HandlerMap = { [N in ProcedureName]: Handler<N> };
