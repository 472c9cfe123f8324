import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const CALLS = Array.from({ length: 40 }, (_, i) =>
  JSON.stringify({ tool: 'finance_get_transaction', args: { transaction_id: `txn_00${(i % 9) + 1}` } }),
).join('\n');

describe.skipIf(!hasCorpus)("Claw-Eval's error injection (reference §6.3)", () => {
  it('is off by default; at a rate it answers 429 / 500 with exact bodies, unaudited, repeatable by seed', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks/T011zh_expense_report')] });
    const clock = '2026-03-05T09:00:00Z';
    const off = await ok(core, 'env.replay', { taskId: 'T011zh_expense_report', callsJsonl: CALLS, clock });
    expect(off.dispatches.every((d) => d.status === 200 && d.delayMs === undefined)).toBe(true);

    const a = await ok(core, 'env.replay', {
      taskId: 'T011zh_expense_report',
      callsJsonl: CALLS,
      clock,
      errorRate: 1,
      seed: 7,
    });
    const b = await ok(core, 'env.replay', {
      taskId: 'T011zh_expense_report',
      callsJsonl: CALLS,
      clock,
      errorRate: 1,
      seed: 7,
    });
    expect(a.dispatches.map((d) => [d.status, d.delayMs ?? 0])).toEqual(
      b.dispatches.map((d) => [d.status, d.delayMs ?? 0]),
    );
    const kinds = new Set(a.dispatches.map((d) => (d.delayMs ? 'slow' : String(d.status))));
    expect(kinds).toEqual(new Set(['429', '500', 'slow']));
    expect(a.dispatches.find((d) => d.status === 429)!.text).toBe(
      '{"error": "rate_limit_exceeded", "message": "Too many requests. Please retry after a short delay.", ' +
        '"retry_after_seconds": 2}',
    );
    expect(a.dispatches.find((d) => d.status === 500)!.text).toBe(
      '{"error": "internal_server_error", "message": "An unexpected error occurred. Please try again."}',
    );
    for (const d of a.dispatches.filter((x) => x.delayMs))
      expect(d.delayMs).toBeGreaterThanOrEqual(2000), expect(d.delayMs).toBeLessThan(4000), expect(d.status).toBe(200);
    // Injected errors never reach the handler: only the probe and the slow (real) calls are audited.
    const calls = (JSON.parse(a.audits.finance!) as { calls: unknown[] }).calls;
    expect(calls.length).toBe(1 + a.dispatches.filter((d) => d.delayMs).length);
    const other = await ok(core, 'env.replay', {
      taskId: 'T011zh_expense_report',
      callsJsonl: CALLS,
      clock,
      errorRate: 1,
      seed: 8,
    });
    expect(other.dispatches.map((d) => d.status)).not.toEqual(a.dispatches.map((d) => d.status));
    await core.close();
  });
});

describe.skipIf(!hasCorpus)('error injection over HTTP (services serve --error-rate)', () => {
  it('429 with Retry-After, 500 with upstream bodies; audit and probe header exempt; none audited', async () => {
    const { serveEnvironment } = await import('../../src/main/headless/services-http');
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks/T011zh_expense_report')] });
    const now = new Date('2026-03-05T09:00:00Z');
    const env = core.taskEnvironment('T011zh_expense_report', now)!;
    // A scripted random source at rate 0.5: per request "inject?" (< 0.5) then "which kind" — 429, then 500, then none.
    const script = [0, 0.1, 0, 0.5, 0.9];
    const base = 21000 + Math.floor(Math.random() * 20000);
    const server = await serveEnvironment(env, base, { rate: 0.5, random: () => script.shift() ?? 0.9 });
    const url = `http://127.0.0.1:${server.ports.finance}`;
    const post = (p: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"transaction_id": "txn_001"}',
      });
    try {
      const limited = await post('/finance/transactions/get');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('2');
      expect(await limited.json()).toEqual({
        error: 'rate_limit_exceeded',
        message: 'Too many requests. Please retry after a short delay.',
        retry_after_seconds: 2,
      });
      const failed = await post('/finance/transactions/get');
      expect([failed.status, await failed.json()]).toEqual([
        500,
        { error: 'internal_server_error', message: 'An unexpected error occurred. Please try again.' },
      ]);
      const probe = await post('/finance/transactions/get', { 'x-health-check': '1' });
      expect(probe.status).toBe(200); // the probe header bypasses injection without consuming the script
      const real = await post('/finance/transactions/get');
      expect(real.status).toBe(200);
      const audit = (await (await fetch(`${url}/finance/audit`)).json()) as { calls: { endpoint: string }[] };
      // the parity probe at start, the header-exempt call and the one real call; no injected error.
      expect(audit.calls.map((c) => c.endpoint)).toEqual([
        '/finance/transactions',
        '/finance/transactions/get',
        '/finance/transactions/get',
      ]);
    } finally {
      await server.close();
      await core.close();
    }
  });
});
