import type { Dispatch, Trajectory } from '../../../../shared/contract/entities/trajectory';
import { MessageView } from './MessageView';

/** The conversation in order: system prompt (folded), task and simulated-user turns, assistant turns, results. */
export function Conversation({
  t,
  focus,
  dispatches,
}: {
  t: Pick<Trajectory, 'messages'>;
  focus: ReadonlySet<string>;
  dispatches: Map<string, Dispatch & { index: number }>;
}) {
  return (
    <div className="conversation" data-testid="conversation">
      <h3>Conversation ({t.messages.length} messages)</h3>
      {t.messages.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages are fixed and never reordered
        <MessageView key={i} m={m} index={i} focus={focus} dispatches={dispatches} />
      ))}
    </div>
  );
}
