import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import type { Input, Output } from '../../../shared/contract';
import type { QueryName } from '../../../shared/contract/watches';
import { call, errorText, onEvent } from './client';
import { type ChangeSource, whenStale } from './live-query';

/** `table.changed` events as a change source. */
export const tableChanges: ChangeSource = (listener) => onEvent('table.changed', ({ table }) => listener(table));

export type LiveQuery<N extends QueryName> = {
  /** The last answer (kept while a refetch runs); null before the first one. */
  data: Output<N> | null;
  error: string | null;
  reload(): void;
};

/**
 * A query's answer that stays current: fetched when `deps` change (by default: the input's JSON), and
 * again when a change event concerns the procedure's data (the contract's WATCHES), so feature code
 * names procedures, never tables. An answer that arrives after a newer request started is dropped.
 */
export function useLiveQuery<N extends QueryName>(
  name: N,
  input: Input<N>,
  deps?: DependencyList,
  opts?: { enabled?: boolean; delayMs?: number },
): LiveQuery<N> {
  const [data, setData] = useState<Output<N> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const inputRef = useRef(input);
  inputRef.current = input;
  const enabled = opts?.enabled ?? true;
  const key = deps ?? [JSON.stringify(input)];
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the input (deps or its JSON).
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    call(name, inputRef.current).then(
      (r) => current && (setData(r), setError(null)),
      (e) => current && setError(errorText(e)),
    );
    return () => {
      current = false;
    };
  }, [name, enabled, version, ...key]);

  useEffect(
    () => (enabled ? whenStale([name], tableChanges, reload, opts?.delayMs) : undefined),
    [name, enabled, reload, opts?.delayMs],
  );
  return { data, error, reload };
}
