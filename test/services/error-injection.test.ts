import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const CALLS = Array.from({ length: 40 }, (_, i) => JSON.stringify({ tool: 'finance_get_transaction', args: { transaction_id: `txn_00${(i % 9) + 1}` } })).join('\n');

describe.skipIf(!hasCorpus)("Claw-Eval's error injection (reference §6.3)", () => {
  it('is off by default; at a rate it answers 429 / 500 with the exact bodies, never audited, repeatable by seed', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks/T011zh_expense_report')] });
    const clock = '2026-03-05T09:00:00Z';
    const off = await ok(core, 'env.replay', { taskId: 'T011zh_expense_report', callsJsonl: CALLS, clock });
    expect(off.dispatches.every((d) => d.status === 200 && d.delayMs === undefined)).toBe(true);

    const a = await ok(core, 'env.replay', { taskId: 'T011zh_expense_report', callsJsonl: CALLS, clock, errorRate: 1, seed: 7 });
    const b = await ok(core, 'env.replay', { taskId: 'T011zh_expense_report', callsJsonl: CALLS, clock, errorRate: 1, seed: 7 });
    expect(a.dispatches.map((d) => [d.status, d.delayMs ?? 0])).toEqual(b.dispatches.map((d) => [d.status, d.delayMs ?? 0]));
    const kinds = new Set(a.dispatches.map((d) => (d.delayMs ? 'slow' : String(d.status))));
    expect(kinds).toEqual(new Set(['429', '500', 'slow']));
    expect(a.dispatches.find((d) => d.status === 429)!.text).toBe('{"error": "rate_limit_exceeded", "message": "Too many requests. Please retry after a short delay.", "retry_after_seconds": 2}');
    expect(a.dispatches.find((d) => d.status === 500)!.text).toBe('{"error": "internal_server_error", "message": "An unexpected error occurred. Please try again."}');
    for (const d of a.dispatches.filter((x) => x.delayMs)) expect(d.delayMs).toBeGreaterThanOrEqual(2000), expect(d.delayMs).toBeLessThan(4000), expect(d.status).toBe(200);
    // Injected errors never reach the handler: only the probe and the slow (real) calls are audited.
    const calls = (JSON.parse(a.audits.finance!) as { calls: unknown[] }).calls;
    expect(calls.length).toBe(1 + a.dispatches.filter((d) => d.delayMs).length);
    const other = await ok(core, 'env.replay', { taskId: 'T011zh_expense_report', callsJsonl: CALLS, clock, errorRate: 1, seed: 8 });
    expect(other.dispatches.map((d) => d.status)).not.toEqual(a.dispatches.map((d) => d.status));
    await core.close();
  });
});
