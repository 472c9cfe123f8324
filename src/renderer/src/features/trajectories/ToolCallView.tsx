import type { Dispatch, ToolCall } from '../../../../shared/contract/entities/trajectory';
import { prettyArgs } from './evidence';

/** One tool call: its name, its arguments pretty-printed (or raw, flagged, when not JSON) and the dispatch status. */
export function ToolCallView({
  call,
  anchor,
  dispatch,
  focused,
}: {
  call: ToolCall;
  anchor: string;
  dispatch: (Dispatch & { index: number }) | undefined;
  focused: boolean;
}) {
  const args = prettyArgs(call.function.arguments);
  const failed = dispatch && dispatch.status >= 400;
  return (
    <div id={anchor} className={`tool-call${focused ? ' evidence-focus' : ''}`} data-testid="tool-call">
      <div className="tool-call-head">
        <span className="tool-name">{call.function.name}</span>
        <span className="hint">{call.id}</span>
        {dispatch && (
          <span className={`chip ${failed ? 'chip-fail' : 'chip-pass'}`} title={dispatch.endpoint || 'no endpoint'}>
            {dispatch.status}
          </span>
        )}
        {call.requestor === 'user' && <span className="chip">user's call</span>}
        {!args.valid && <span className="chip chip-fail">arguments are not valid JSON</span>}
      </div>
      <pre className="code">{args.text}</pre>
    </div>
  );
}
