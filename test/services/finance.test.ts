import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/main/core/services/environment';
import { financeService } from '../../src/main/core/services/finance/finance.service';
import { dumpsPy, parsePyJson, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00Z');
// Parsed from text so that 328.0 stays a Python float.
const FIXTURE = parsePyJson(`[
  {"transaction_id": "txn_001", "date": "2026-02-20", "amount": 328.0, "currency": "CNY", "description": "dinner"},
  {"transaction_id": "txn_002", "date": "2026-02-22T10:00", "amount": 45, "description": "taxi"},
  {"transaction_id": "txn_003", "date": "2026-02-25", "amount": 1200.5, "description": "hotel"}
]`) as PyValue[];
const make = () => new ServiceInstance(financeService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => s.request('POST', path, body);
const json = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => post(s, path, body).json as PyObject;
const ids = (r: PyObject) => (r.transactions as PyObject[]).map((t) => t.transaction_id);
const calls = <S>(s: ServiceInstance<S>) => s.audit().calls as PyObject[];

describe('finance service', () => {
  it('lists everything by default; the health probe is logged with the null defaults', () => {
    const env = new Environment({ services: [{ id: 'finance', records: FIXTURE }], tools: [], now: () => NOW });
    const probe = (env.audits().finance!.calls as PyObject[])[0]!;
    expect(probe.endpoint).toBe('/finance/transactions');
    expect(probe.request_body).toEqual({ start_date: null, end_date: null });
    expect((probe.response_body as PyObject).total).toBe(3);
  });

  it('compares dates as strings, inclusive, ignoring null and empty bounds', () => {
    const s = make();
    expect(ids(json(s, '/finance/transactions', { start_date: '2026-02-22', end_date: '2026-02-25' }))).toEqual([
      'txn_002',
      'txn_003',
    ]);
    // "2026-02-22T10:00" > "2026-02-22": lexicographic, not date-aware.
    expect(ids(json(s, '/finance/transactions', { start_date: '2026-02-21', end_date: '2026-02-22' }))).toEqual([]);
    expect(ids(json(s, '/finance/transactions', { start_date: '2026-02-20', end_date: '2026-02-20' }))).toEqual([
      'txn_001',
    ]);
    expect(json(s, '/finance/transactions', { start_date: '', end_date: '' }).total).toBe(3);
    expect(ids(json(s, '/finance/transactions', { end_date: '2026-02-23' }))).toEqual(['txn_001', 'txn_002']);
  });

  it('keeps float amounts floats in the tool-result text and returns deep copies', () => {
    const s = make();
    const r = json(s, '/finance/transactions/get', { transaction_id: 'txn_001' });
    expect(dumpsPy(r)).toBe(
      '{"transaction_id": "txn_001", "date": "2026-02-20", "amount": 328.0, "currency": "CNY", "description": ' +
        '"dinner"}',
    );
    r.amount = 1;
    expect(dumpsPy(json(s, '/finance/transactions/get', { transaction_id: 'txn_001' }).amount)).toBe('328.0');
    expect(post(s, '/finance/transactions/get', { transaction_id: 'txn_9' })).toEqual({
      status: 200,
      json: { error: 'Transaction txn_9 not found' },
    });
    expect(calls(s)).toHaveLength(3);
  });

  it('submits a report with total_amount coerced to a float, for any transaction ids', () => {
    const s = make();
    const r = json(s, '/finance/report/submit', {
      title: 'Q1',
      transactions: ['txn_001', 'nope'],
      total_amount: 1200,
      content: 'dropped',
    });
    expect(dumpsPy(r)).toBe(
      '{"status": "submitted", "report": {"title": "Q1", "transactions": ["txn_001", "nope"], "total_amount": ' +
        '1200.0, "timestamp": "2026-03-05T09:00:00+00:00"}}',
    );
    expect(dumpsPy(calls(s)[0]!.request_body)).toBe(
      '{"title": "Q1", "transactions": ["txn_001", "nope"], "total_amount": 1200.0}',
    );
    expect(s.audit().submitted_reports).toEqual([r.report]);
    expect(
      dumpsPy(json(s, '/finance/report/submit', { title: 'x', transactions: [], total_amount: '42.5' }).report),
    ).toContain('"total_amount": 42.5');
    expect(Object.keys(s.audit())).toEqual(['calls', 'submitted_reports']);
  });

  it('rejects a string for the list and a missing transactions field (finance_report_submit) with 422', () => {
    const s = make();
    const noList = post(s, '/finance/report/submit', { title: 'x', total_amount: 99.5 });
    expect(noList).toEqual({
      status: 422,
      json: {
        detail: [
          {
            type: 'missing',
            loc: ['body', 'transactions'],
            msg: 'Field required',
            input: { title: 'x', total_amount: 99.5 },
          },
        ],
      },
    });
    const str = post(s, '/finance/report/submit', { title: 'x', transactions: 'a', total_amount: 'lots' });
    expect((str.json as { detail: PyObject[] }).detail.map((d) => d.type)).toEqual(['list_type', 'float_parsing']);
    expect(post(s, '/finance/transactions', { start_date: ['2026-01-01'] }).status).toBe(422);
    expect(calls(s)).toEqual([]);
  });

  it('reset clears submitted reports and calls', () => {
    const s = make();
    json(s, '/finance/report/submit', { title: 'x', transactions: [], total_amount: 1 });
    post(s, '/finance/reset');
    expect(s.audit()).toEqual({ calls: [], submitted_reports: [] });
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it('the record schema refuses a transaction without its always-present fields', () => {
    expect(
      financeService.recordSchema.safeParse({ transaction_id: 'a', date: 'b', amount: '1', description: 'd' }).success,
    ).toBe(false);
  });
});
