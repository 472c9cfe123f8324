import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { serveEnvironment } from '../../src/main/headless/services-http';
import { ok } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';
import { HAND_WRITTEN, workspaceWithHandWritten } from '../validation/stored-tasks';
import { validTask } from '../validation/valid-task';

/**
 * A task stored as a TaskSpec (records inline, as every generated task) must get the same
 * environment in env replay and services serve as in validation: before one builder served them
 * all, both answered "All connection attempts failed" for every call.
 */
const cores: Core[] = [];
afterEach(async () => void (await Promise.all(cores.splice(0).map((c) => c.close()))));
const open = async () => {
  const { core } = createTestCore({ workspacePath: await workspaceWithHandWritten() });
  cores.push(core);
  return core;
};
const plan = validTask().reference_plan as { tool: string; args: Record<string, unknown> }[];

describe('stored TaskSpec tasks in env replay and services serve', () => {
  it('env.replay runs the reference plan on the inline records, on the reference date’s clock', async () => {
    const core = await open();
    const callsJsonl = plan.map((s) => JSON.stringify(s)).join('\n');
    const r = await ok(core, 'env.replay', { taskId: HAND_WRITTEN[0], callsJsonl });
    expect(r.dispatches.map((d) => d.status)).toEqual(plan.map(() => 200));
    expect(JSON.parse(r.dispatches[0]!.body).messages.map((m: { message_id: string }) => m.message_id)).toContain(
      'msg_101',
    );
    const helpdesk = JSON.parse(r.audits.helpdesk!);
    expect(helpdesk.updated_tickets[0]).toMatchObject({ ticket_id: 'TK-3001', priority: 'high' });
    // days_back 2 from the pinned 2026-04-10 09:00Z keeps both mails; the wall clock would keep none.
    expect(JSON.parse(r.dispatches[0]!.body).total).toBe(2);
  });

  it('services serve answers the inline records over HTTP', async () => {
    const core = await open();
    const env = core.taskEnvironment(HAND_WRITTEN[0], undefined)!;
    const base = 30000 + Math.floor(Math.random() * 20000);
    const server = await serveEnvironment(env, base);
    try {
      const res = await fetch(`http://127.0.0.1:${server.ports.helpdesk}/helpdesk/tickets/get`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ticket_id: 'TK-3002' }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ticket_id: 'TK-3002', title: 'Printer jam' });
    } finally {
      await server.close();
    }
  });
});
