import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore, tempDir } from '../helpers/test-core';

const TASKS = path.join(CLAW_ROOT, 'tasks');
const hasCorpus = fs.existsSync(TASKS);
const clock = '2026-03-05T09:00:00Z';

/**
 * T007zh with upstream's broken `todo_get_task` added (as T123–T150 have it: mapped to the missing /todo/tasks/get).
 */
function todoTaskWithGetTool(): string {
  const root = tempDir('claw-fixed-');
  const dir = path.join(root, 'tasks/T007zh_todo_management');
  fs.cpSync(path.join(TASKS, 'T007zh_todo_management'), dir, { recursive: true });
  const f = path.join(dir, 'task.yaml');
  fs.writeFileSync(
    f,
    fs
      .readFileSync(f, 'utf8')
      .replace(
        'tools:\n',
        'tools:\n  - name: todo_get_task\n    description: get one task\n    input_schema:\n      type: object\n     ' +
          ' properties:\n        task_id:\n          type: string\n      required: [task_id]\n',
      )
      .replace(
        'tool_endpoints:\n',
        'tool_endpoints:\n  - tool_name: todo_get_task\n    url: http://localhost:9102/todo/tasks/get\n    method: ' +
          'POST\n',
      ),
  );
  return root;
}

describe.skipIf(!hasCorpus)('fixed mode repairs broken routes and mismatches, never silently', () => {
  it('todo_get_task: 404 in parity; in fixed mode the task, flagged as repaired', async () => {
    const { core } = createTestCore({ seedDemo: false });
    const imp = await ok(core, 'tasks.import', { paths: [todoTaskWithGetTool()] });
    expect(imp.outcomes[0]!.warnings.join('\n')).toMatch(
      /todo_get_task → \/todo\/tasks\/get: the route does not exist/,
    );
    const callsJsonl =
      '{"tool": "todo_get_task", "args": {"task_id": "todo_001"}}\n{"tool": "todo_get_task", "args": {"task_id": ' +
      '"todo_999"}}';
    const parity = await ok(core, 'env.replay', { taskId: 'T007zh_todo_management', callsJsonl, clock });
    expect(parity.dispatches.map((d) => [d.status, d.text, d.repaired])).toEqual([
      [404, '{"detail": "Not Found"}', undefined],
      [404, '{"detail": "Not Found"}', undefined],
    ]);
    const fixed = await ok(core, 'env.replay', { taskId: 'T007zh_todo_management', callsJsonl, clock, mode: 'fixed' });
    expect(fixed.mode).toBe('fixed');
    expect(fixed.dispatches[0]).toMatchObject({ status: 200, repaired: 'todo-get-route' });
    expect(JSON.parse(fixed.dispatches[0]!.body)).toMatchObject({ task_id: 'todo_001' });
    expect(fixed.dispatches[1]!.text).toBe('{"error": "Task todo_999 not found"}');
    await core.close();
  });

  it('finance_report_submit without transactions: 422 in parity, submitted with [] in fixed mode', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [path.join(TASKS, 'T035zh_vendor_procurement')] });
    const callsJsonl =
      '{"tool": "finance_report_submit", "args": {"title": "Q1", "content": "...", "total_amount": 120}}';
    const parity = await ok(core, 'env.replay', { taskId: 'T035zh_vendor_procurement', callsJsonl, clock });
    expect(parity.dispatches[0]).toMatchObject({ status: 422, isError: true });
    expect(parity.dispatches[0]!.text).toContain('"loc": ["body", "transactions"]');
    const fixed = await ok(core, 'env.replay', {
      taskId: 'T035zh_vendor_procurement',
      callsJsonl,
      clock,
      mode: 'fixed',
    });
    expect(fixed.dispatches[0]).toMatchObject({ status: 200, repaired: 'finance-report-transactions' });
    expect(fixed.dispatches[0]!.text).toContain('"transactions": [], "total_amount": 120.0');
    // Calls that need no repair answer exactly as in parity mode, and carry no flag.
    const plain = '{"tool": "finance_get_transaction", "args": {"transaction_id": "txn_001"}}';
    const [a, b] = await Promise.all(
      ['parity', 'fixed'].map((mode) =>
        ok(core, 'env.replay', {
          taskId: 'T035zh_vendor_procurement',
          callsJsonl: plain,
          clock,
          mode: mode as 'parity',
        }),
      ),
    );
    expect(b!.dispatches[0]!.text).toBe(a!.dispatches[0]!.text);
    expect(b!.dispatches[0]!.repaired).toBeUndefined();
    await core.close();
  });
});
