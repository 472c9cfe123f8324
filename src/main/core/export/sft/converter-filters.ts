import type { RejectionReason, SftConverterRules } from '../../../../shared/contract/entities/export';
import type { AgentView } from './agent-view';

/**
 * The mixed-pool converter's record filters (formats.md §6.2), checked in the paper's order; a
 * record is attributed to the first one it fails. The view was built with observations already
 * shortened to `observationChars`, so `chars` is the post-shortening size the budget applies to.
 */
export function converterVerdict(
  v: AgentView,
  r: SftConverterRules,
): { reason: RejectionReason; detail: string } | null {
  if (!v.usable) return { reason: 'no_usable_interaction', detail: 'no user text followed by an assistant reply' };
  const c = v.counts;
  if (c.messages < r.minMessages)
    return { reason: 'too_short', detail: `${c.messages} messages (fewer than ${r.minMessages})` };
  if (c.toolCalls > r.maxToolCalls)
    return { reason: 'too_many_tool_calls', detail: `${c.toolCalls} tool calls (more than ${r.maxToolCalls})` };
  if (c.chars > r.maxChars)
    return {
      reason: 'over_char_budget',
      detail: `${c.chars} characters after shortening observations to ${r.observationChars} (more than ${r.maxChars})`,
    };
  return null;
}
