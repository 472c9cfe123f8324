import type { Output, ParsedInput, ProcedureName } from '../../../shared/contract';
import type { HandlerContext } from '../context';

/**
 * One handler per procedure, typed from the contract. Mutation handlers must be synchronous:
 * they run inside a better-sqlite3 transaction, which cannot span an await.
 */
export type Handler<N extends ProcedureName> = (
  input: ParsedInput<N>,
  ctx: HandlerContext,
) => Output<N> | Promise<Output<N>>;
export type HandlerMap = { [N in ProcedureName]: Handler<N> };
