import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/main/core/services/environment';
import { inventoryService } from '../../src/main/core/services/inventory/inventory.service';
import { dumpsPy, parsePyJson, PyFloat, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00.250Z');
// The two record styles upstream fixtures use, with Python floats kept as floats.
const FIXTURE = parsePyJson(
  JSON.stringify([
    {
      product_id: 'SKU-1',
      name: 'Earbuds',
      category: 'Electronics',
      current_stock: 3,
      min_stock_threshold: 20,
      unit_price: 299.0,
      supplier: 'S1',
    },
    {
      product_id: 'SKU-2',
      name: 'Cable',
      category: 'Accessories',
      quantity: 450,
      unit: 'pcs',
      reorder_level: 100,
      unit_cost: 29.9,
      location: 'A1',
    },
    { product_id: 'SKU-3', name: 'Watch', category: 'Electronics', current_stock: 0 },
  ]).replace('"unit_price":299', '"unit_price":299.0'),
) as PyValue[];
const make = () => new ServiceInstance(inventoryService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => s.request('POST', p, body);
const ids = (r: { json?: PyValue }) => ((r.json as PyObject).products as PyObject[]).map((t) => t.product_id);

describe('inventory: products', () => {
  it('lists full records; category filters exactly, null and "" do not filter', () => {
    const s = make();
    expect(ids(post(s, '/inventory/products', {}))).toEqual(['SKU-1', 'SKU-2', 'SKU-3']);
    expect(ids(post(s, '/inventory/products', { category: '' }))).toEqual(['SKU-1', 'SKU-2', 'SKU-3']);
    expect(ids(post(s, '/inventory/products', { category: null }))).toEqual(['SKU-1', 'SKU-2', 'SKU-3']);
    expect(ids(post(s, '/inventory/products', { category: 'Electronics' }))).toEqual(['SKU-1', 'SKU-3']);
    expect(ids(post(s, '/inventory/products', { category: 'electronics' }))).toEqual([]);
    const r = post(s, '/inventory/products', { category: 'Accessories', status: 'low' });
    expect(r.json).toEqual({ products: [FIXTURE[1]], total: 1 });
  });

  it('keeps float fidelity and fixture key order in the tool text', () => {
    const r = post(make(), '/inventory/products/get', { product_id: 'SKU-1' });
    expect(dumpsPy(r.json)).toBe(
      '{"product_id": "SKU-1", "name": "Earbuds", "category": "Electronics", "current_stock": 3, ' +
        '"min_stock_threshold": 20, "unit_price": 299.0, "supplier": "S1"}',
    );
  });

  it('get returns a deep copy or a logged not-found', () => {
    const s = make();
    (post(s, '/inventory/products/get', { product_id: 'SKU-3' }).json as PyObject).current_stock = 99;
    expect((post(s, '/inventory/products', {}).json as PyObject).products).toEqual(FIXTURE);
    expect(post(s, '/inventory/products/get', { product_id: 'SKU-9' }).json).toEqual({
      error: 'Product SKU-9 not found',
    });
    expect((s.audit().calls as PyObject[]).map((c) => c.request_body)).toEqual([
      { product_id: 'SKU-3' },
      { category: null },
      { product_id: 'SKU-9' },
    ]);
  });

  it('the health probe lists with category null and is logged', () => {
    const env = new Environment({ services: [{ id: 'inventory', records: FIXTURE }], tools: [], now: () => NOW });
    expect((env.audits().inventory!.calls as PyObject[]).map((c) => [c.endpoint, c.request_body])).toEqual([
      ['/inventory/products', { category: null }],
    ]);
  });
});

describe('inventory: orders', () => {
  it('creates an order without checking the product or touching stock', () => {
    const s = make();
    const r = post(s, '/inventory/orders/create', { product_id: 'NOPE', quantity: '25' });
    const order = { product_id: 'NOPE', quantity: 25, supplier: null, timestamp: '2026-03-05T09:00:00.250000+00:00' };
    expect(dumpsPy(r.json)).toBe(dumpsPy({ status: 'created', order }));
    post(s, '/inventory/orders/create', { product_id: 'SKU-3', quantity: 5.0, supplier: 'S9' });
    expect((post(s, '/inventory/products/get', { product_id: 'SKU-3' }).json as PyObject).current_stock).toBe(0);
    const a = s.audit();
    expect(Object.keys(a)).toEqual(['calls', 'orders']);
    expect(a.orders).toEqual([order, { product_id: 'SKU-3', quantity: 5, supplier: 'S9', timestamp: order.timestamp }]);
    // The action record and the logged response are one object (upstream shares it).
    expect(((a.calls as PyObject[])[0]!.response_body as PyObject).order).toBe((a.orders as PyObject[])[0]);
  });

  it('rejects bad quantities with pydantic v2 errors, unlogged', () => {
    const s = make();
    const detail = (body: PyObject) =>
      ((post(s, '/inventory/orders/create', body).json as PyObject).detail as PyObject[])[0];
    expect(detail({ product_id: 'A' })).toEqual({
      type: 'missing',
      loc: ['body', 'quantity'],
      msg: 'Field required',
      input: { product_id: 'A' },
    });
    expect(detail({ product_id: 'A', quantity: 'ten' })).toMatchObject({ type: 'int_parsing', input: 'ten' });
    expect(detail({ product_id: 'A', quantity: new PyFloat(2.5) })).toMatchObject({ type: 'int_from_float' });
    expect(detail({ product_id: 'A', quantity: 1, supplier: 7 })).toMatchObject({
      type: 'string_type',
      loc: ['body', 'supplier'],
    });
    expect(s.audit()).toEqual({ calls: [], orders: [] });
  });

  it('reset clears orders and calls', () => {
    const s = make();
    post(s, '/inventory/orders/create', { product_id: 'SKU-1', quantity: 1 });
    post(s, '/inventory/reset');
    expect(s.audit()).toEqual({ calls: [], orders: [] });
  });
});

describe('inventory: record schema', () => {
  // Every corpus fixture record against the schema: test/services/registry.test.ts.
  it('requires product_id, name and category only', () => {
    expect(inventoryService.recordSchema.safeParse({ product_id: 'A', name: 'n', category: 'c' }).success).toBe(true);
    expect(inventoryService.recordSchema.safeParse({ product_id: 'A', name: 'n' }).success).toBe(false);
  });
});
