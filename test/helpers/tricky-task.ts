import type { ExportTask } from '../../src/main/core/export/export-task';
import { handTask } from './rollouts';

/**
 * A hand-written task that exercises what a round trip through task.yaml (YAML 1.1, as PyYAML reads
 * it) and the Python grader could get wrong: strings YAML 1.1 would read as numbers, booleans, dates
 * or null; every matcher kind; a web service with inline records (its page file missing); a simulated
 * user with hidden facts; a port set by hand; a key TaskSpec does not know.
 */
export function trickyTask(): ExportTask {
  const base = handTask().spec;
  return handTask({
    task_id: 'HW010_tricky_yaml',
    task_name: 'yes',
    version: '2.0',
    category: 'on',
    difficulty: 'hard',
    language: 'zh',
    tags: ['general', 'null', '15:00'],
    reference_date: '2026-04-10',
    slot_id: 7,
    custom_field: { keep: ['me', 1.5] },
    prompt: { text: '15:00 之前：把工单TK-3001提升为 high，0x10 ~ yes\n第二行', language: 'zh', attachments: [] },
    services: [
      { name: 'helpdesk', port: 9107, records: base.services[1]!.records },
      {
        name: 'web',
        records: [
          {
            url: 'https://s/1',
            title: 'VPN status',
            snippet: 'ok',
            source: 's',
            published_at: '2026-04-09',
            keywords: ['vpn'],
          },
        ],
      },
    ],
    tools: [
      ...base.tools.filter((t) => t.name.startsWith('helpdesk')).map((t) => ({ ...t, description: 'off' })),
      {
        name: 'web_search',
        description: '1e3',
        input_schema: { type: 'object', properties: { query: { type: 'string' } } },
      },
    ],
    tool_endpoints: [
      { tool_name: 'helpdesk_list_tickets', url: 'http://localhost:9107/helpdesk/tickets' },
      { tool_name: 'helpdesk_update_ticket', url: 'http://localhost:9107/helpdesk/tickets/update' },
      { tool_name: 'web_search', url: 'http://localhost:9113/web/search' },
    ],
    environment: { max_turns: 12, timeout_seconds: 600 },
    user_agent: {
      enabled: true,
      persona: 'Dana, terse',
      hidden_facts: ['budget: 0'],
      max_rounds: 4,
      system_prompt_suffix: '',
    },
    checks: [
      {
        id: 'listed',
        kind: 'tool_called',
        weight: 0.1,
        tool: 'helpdesk_list_tickets',
        args: { status: { exists: false } },
        min_count: 1,
        successful_only: false,
      },
      {
        id: 'raised',
        kind: 'audit',
        weight: 0.2,
        service: 'helpdesk',
        action_key: 'updated_tickets',
        fields: { ticket_id: { regex: '^TK-\\d{4}$' }, priority: { contains: 'HIG', case_insensitive: true } },
      },
      {
        id: 'searched',
        kind: 'tool_called',
        weight: 0.1,
        tool: 'web_search',
        args: { query: { one_of: ['vpn', 'VPN status'] } },
      },
      { id: 'cited', kind: 'final_text', weight: 0.2, regex: '\\bTK-\\d+\\b', case_insensitive: false },
      {
        id: 'said',
        kind: 'final_text',
        weight: 0.1,
        contains_all: ['yes', '15:00', '2026-04-10'],
        contains_any: ['~', 'null'],
      },
      { id: 'long', kind: 'final_text', weight: 0.1, min_length: 12 },
      { id: 'limit3', kind: 'tool_called', weight: 0.1, tool: 'web_search', args: { limit: { regex: '^3$' } } },
      { id: 'judged', kind: 'llm_judge', weight: 0.1, rubric: 'Polite?' },
    ],
    prohibited: [
      { kind: 'tool', tool: 'helpdesk_update_ticket', args: { priority: { equals: 'low' } } },
      { kind: 'tool', tool: 'web_search', args: { limit: { range: { min: 4.5 } } } },
      {
        kind: 'audit',
        service: 'helpdesk',
        action_key: 'updated_tickets',
        fields: { ticket_id: { equals: 'TK-3002' } },
      },
    ],
    reference_plan: [
      { tool: 'helpdesk_list_tickets', args: {} },
      { tool: 'helpdesk_update_ticket', args: { ticket_id: 'TK-3001', priority: 'high' } },
      { tool: 'web_search', args: { query: 'vpn' } },
    ],
    reference_final_text: '工单TK-3001已提升 (yes, 15:00, 2026-04-10, ~)',
    judge_rubric: 'no',
    reference_solution: '1. list\n2. raise',
  });
}
