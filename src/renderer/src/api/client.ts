import type { AppErrorBody, Input, Output, ProcedureName } from '../../../shared/contract';
import type { AnyEvent, EventName, EventPayload } from '../../../shared/contract/events';
import { transport } from './transport';

export class ApiError extends Error {
  constructor(readonly body: AppErrorBody) {
    super(body.message);
  }
}

/**
 * A procedure's input argument: optional when the contract accepts no input at all (its input schema
 * has a default, or every field is optional), so `call('trajectories.collections')` needs no `{}`.
 */
export type InputArg<N extends ProcedureName> = undefined extends Input<N> ? [input?: Input<N>] : [input: Input<N>];

/** Typed call: unwraps the envelope, throws ApiError on { ok: false }. */
export async function call<N extends ProcedureName>(name: N, ...input: InputArg<N>): Promise<Output<N>> {
  const r = await transport.call(name, input[0] ?? {});
  if (!r.ok) throw new ApiError(r.error);
  return r.data as Output<N>;
}

type Listener = (e: AnyEvent) => void;
const listeners = new Set<Listener>();
let subscribed = false;

/** One transport subscription shared by every component. */
export function onEvent<E extends EventName>(event: E, cb: (payload: EventPayload<E>) => void): () => void {
  const l: Listener = (e) => {
    if (e.event === event) cb(e.payload as EventPayload<E>);
  };
  listeners.add(l);
  if (!subscribed) {
    transport.on((e) => listeners.forEach((x) => x(e)));
    subscribed = true;
  }
  return () => {
    listeners.delete(l);
  };
}

export const errorText = (err: unknown): string => {
  if (err instanceof ApiError) {
    const first = err.body.issues?.[0];
    return first && !err.body.message.includes(first.message)
      ? `${err.body.message} (${first.path.join('.')}: ${first.message})`
      : err.body.message;
  }
  return (err as Error).message ?? String(err);
};
