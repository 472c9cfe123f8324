import { isChangeTopic } from '../../../shared/contract/events';
import { type QueryName, watchedTopics } from '../../../shared/contract/watches';

/** A stream of changed table names (`table.changed` in the app; a plain function in tests). */
export type ChangeSource = (listener: (table: string) => void) => () => void;

/**
 * Calls `stale` when a change concerns the data of any of `names` (the topics the contract says each
 * one watches), once per burst: a job commits batch after batch, and one refetch after `delayMs` of
 * quiet answers them all. Answers the unsubscribe function.
 */
export function whenStale(
  names: readonly QueryName[],
  source: ChangeSource,
  stale: () => void,
  delayMs = 100,
): () => void {
  const topics = new Set(names.flatMap((n) => watchedTopics(n)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = source((table) => {
    // A table this renderer does not know (a newer core) may back any query: refetch rather than go stale.
    if (isChangeTopic(table) && !topics.has(table)) return;
    clearTimeout(timer);
    timer = setTimeout(stale, delayMs);
  });
  return () => (clearTimeout(timer), off());
}
