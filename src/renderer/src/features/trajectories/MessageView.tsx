import type { Dispatch, Message } from '../../../../shared/contract/entities/trajectory';
import { callAnchor, messageAnchor, prettyResult } from './evidence';
import { ToolCallView } from './ToolCallView';

const LONG = 1500;

/** Who speaks, as the viewer labels it: simulated users are never shown as the task's own user. */
function roleLabel(m: Message): string {
  switch (m.role) {
    case 'system':
      return 'System prompt';
    case 'user':
      return m.origin === 'simulated_user' ? 'Simulated user' : m.origin === 'human' ? 'User' : 'User (task)';
    case 'assistant':
      return 'Assistant';
    case 'tool':
      return `Result of ${m.name}`;
  }
}

function Body({ text }: { text: string }) {
  if (text.length <= LONG) return <pre className="msg-text">{text}</pre>;
  return (
    <details>
      <summary>
        <pre className="msg-text">{text.slice(0, LONG)}…</pre>
        <span className="hint">show all {text.length.toLocaleString('en-US')} characters</span>
      </summary>
      <pre className="msg-text">{text.slice(LONG)}</pre>
    </details>
  );
}

/** One message of the conversation, with its tool calls (each linked to its dispatch) or its tool result. */
export function MessageView({
  m,
  index,
  focus,
  dispatches,
}: {
  m: Message;
  index: number;
  focus: ReadonlySet<string>;
  dispatches: Map<string, Dispatch & { index: number }>;
}) {
  const anchor = messageAnchor(index);
  const sim = m.role === 'user' && m.origin === 'simulated_user';
  const error = m.role === 'tool' && m.is_error;
  const cls = `msg msg-${m.role}${sim ? ' msg-sim' : ''}${error ? ' msg-error' : ''}`;
  const calls = m.role === 'assistant' || m.role === 'user' ? (m.tool_calls ?? []) : [];
  const head = (
    <div className="msg-head">
      <span className="msg-role">{roleLabel(m)}</span>
      <span className="hint">#{index}</span>
      {m.role === 'tool' && <span className="hint">{m.tool_call_id}</span>}
      {error && <span className="chip chip-fail">error</span>}
      {m.role === 'user' && m.control && <span className="chip">{m.control}</span>}
    </div>
  );
  if (m.role === 'system')
    return (
      <details id={anchor} className={cls}>
        <summary>{head}</summary>
        <Body text={m.content} />
      </details>
    );
  return (
    <div
      id={anchor}
      className={`${cls}${focus.has(anchor) ? ' evidence-focus' : ''}`}
      data-testid={`message-${index}`}
      data-role={sim ? 'simulated_user' : m.role}
    >
      {head}
      {m.role === 'assistant' && m.reasoning && (
        <details className="reasoning">
          <summary>reasoning</summary>
          <Body text={m.reasoning} />
        </details>
      )}
      {m.role === 'tool' ? <Body text={prettyResult(m.content)} /> : m.content ? <Body text={m.content} /> : null}
      {calls.map((c) => {
        const a = callAnchor(index, c.id);
        return <ToolCallView key={a} call={c} anchor={a} dispatch={dispatches.get(a)} focused={focus.has(a)} />;
      })}
    </div>
  );
}
