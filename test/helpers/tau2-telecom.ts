/**
 * A τ²-bench results file of the telecom domain in miniature (formats.md §2.2 quirk 11): the simulated
 * user calls tools on its own phone (`tool_calls` on user messages, requestor "user", results with
 * requestor "user"), as τ²'s dual-control domain records it. The shared corpus has no telecom run.
 */
type Msg = Record<string, unknown>;
let n = 0;
const call = (name: string, args: Record<string, unknown>, requestor: 'assistant' | 'user') => ({
  id: `call_${requestor}_${++n}`,
  name,
  arguments: args,
  requestor,
});
const agent = (content: string | null, calls: ReturnType<typeof call>[] = []): Msg => ({
  role: 'assistant',
  content,
  tool_calls: calls.length ? calls : null,
});
const userSays = (content: string | null, calls: ReturnType<typeof call>[] = []): Msg => ({
  role: 'user',
  content,
  tool_calls: calls.length ? calls : null,
});
const result = (c: { id: string; requestor: string }, content: string): Msg => ({
  id: c.id,
  role: 'tool',
  content,
  requestor: c.requestor,
  error: false,
});

/** The agent's calls and the user's, by simulation, for the assertions. */
export type TelecomCalls = { agent: { id: string; name: string }[]; user: { id: string; name: string }[] };

/**
 * Two simulations: one ends on the agent's text (the user's STOP trimmed), the other on the agent's
 * transfer call and its result. Each has user-side calls, some back to back.
 */
export function telecomResults(): { file: Record<string, unknown>; calls: TelecomCalls[] } {
  n = 0;
  const lookup = call('get_customer_by_phone', { phone_number: '555-123-2002' }, 'assistant');
  const status = call('check_status_bar', {}, 'user');
  const airplane = call('toggle_airplane_mode', {}, 'user');
  const speed = call('run_speed_test', {}, 'user');
  const first = [
    agent('Hi! How can I help you today?'),
    userSays('My phone says No Service.'),
    agent(null, [lookup]),
    result(lookup, '{"customer_id": "C1001", "full_name": "John Smith"}'),
    agent('Thanks, John. Could you look at your status bar and tell me what it shows?'),
    userSays(null, [status]),
    result(status, 'Airplane mode: ON | Signal: none'),
    userSays('It shows an airplane icon.'),
    agent('Please turn airplane mode off, then run a speed test.'),
    userSays(null, [airplane]),
    result(airplane, 'Airplane mode: OFF'),
    userSays(null, [speed]),
    result(speed, 'Download 210 Mbps: excellent'),
    userSays('It works now, thank you! ###STOP###'),
  ];
  const lookup2 = call('get_customer_by_phone', { phone_number: '555-123-2003' }, 'assistant');
  const reboot = call('reboot_device', {}, 'user');
  const transfer = call('transfer_to_human_agents', { summary: 'SIM locked with a PIN.' }, 'assistant');
  const second = [
    agent('Hi! How can I help you today?'),
    userSays('My SIM asks for a PIN I do not know.'),
    agent(null, [lookup2]),
    result(lookup2, '{"customer_id": "C1002", "full_name": "Jane Doe"}'),
    agent('Could you reboot your phone first?'),
    userSays(null, [reboot]),
    result(reboot, 'Rebooted. SIM status: locked_pin'),
    userSays('It still asks for the PIN. Can a person help me?'),
    agent(null, [transfer]),
    result(transfer, 'Transfer successful'),
    userSays('###TRANSFER###'),
  ];
  const sim = (id: string, task: string, messages: Msg[]) => ({
    id,
    task_id: task,
    trial: 0,
    termination_reason: 'user_stop',
    reward_info: { reward: 1.0, reward_basis: ['ENV_ASSERTION'] },
    messages: messages.map((m, i) => ({ ...m, turn_idx: i })),
  });
  const file = {
    timestamp: '2026-01-01T00:00:00',
    info: {
      num_trials: 1,
      agent_info: { implementation: 'llm_agent', llm: 'gpt-4.1' },
      user_info: { implementation: 'user_simulator', llm: 'gpt-4.1' },
      environment_info: { domain_name: 'telecom', policy: '# Telecom Agent Policy\nHelp the user.', tool_defs: null },
    },
    tasks: [{ id: 'no_service' }, { id: 'sim_pin' }],
    simulations: [sim('sim-1', 'no_service', first), sim('sim-2', 'sim_pin', second)],
  };
  const pick = (cs: ReturnType<typeof call>[]) => cs.map((c) => ({ id: c.id, name: c.name }));
  return {
    file,
    calls: [
      { agent: pick([lookup]), user: pick([status, airplane, speed]) },
      { agent: pick([lookup2, transfer]), user: pick([reboot]) },
    ],
  };
}

/** The agent's tool schemas for the two simulations (the results file carries none: tool_defs is null). */
export const TELECOM_TOOLS = ['get_customer_by_phone', 'transfer_to_human_agents'].map((name) => ({
  type: 'function',
  function: { name, description: `${name} (telecom)`, parameters: { type: 'object', properties: {} } },
}));
