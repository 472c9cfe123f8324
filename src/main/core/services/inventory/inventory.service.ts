import { z } from 'zod';
import { defineService } from '../define';
import { amount, count, oneOf } from '../record-fields';
import { deepCopy, findBy, notFound, objects } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';

/**
 * reference/claw-eval.md §6.12. Records come in two unrelated shapes (quantity/reorder_level vs
 * current_stock/min_stock_threshold), so only the three common fields are schema-checked and the
 * list returns full records. The `status` filter some task schemas expose is ignored.
 */
const ProductRecord = z.looseObject({
  product_id: z.string(),
  name: z.string(),
  category: z.string(),
  current_stock: count().optional(),
  min_stock_threshold: count().optional(),
  min_stock: count().optional(),
  reorder_quantity: count().optional(),
  lead_time_days: count().optional(),
  daily_avg_sales: count().optional(),
  return_count: count().optional(),
  units_sold_this_month: count().optional(),
  quantity: count().optional(),
  reorder_level: count().optional(),
  unit_price: amount(0).optional(),
  status: oneOf([
    'normal',
    'low_stock',
    'critical',
    'out_of_stock',
    'backordered',
    'overstocked',
    'discontinued',
  ]).optional(),
});

type State = { products: PyObject[] };

export const inventoryService = defineService<State>({
  id: 'inventory',
  port: 9108,
  fixtureEnv: 'INVENTORY_FIXTURES',
  defaultFixture: 'tasks/T019zh_inventory_check/fixtures/inventory/products.json',
  probe: { method: 'POST', path: '/inventory/products' },
  actionKeys: ['orders'],
  recordSchema: ProductRecord,
  recordKey: 'product_id',
  upstreamReads: ['product_id', 'category'],
  load: (records) => ({ products: objects(records) }),
  routes: {
    '/inventory/products': {
      model: { category: opt('str') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        // Truthiness upstream: null and "" both mean "no filter".
        const products = state.products.filter((p) => !r.category || p.category === r.category).map((p) => deepCopy(p));
        return { products, total: products.length };
      },
    },
    '/inventory/products/get': {
      model: { product_id: req('str') },
      handle: (r, { state }) => {
        const p = findBy(state.products, 'product_id', r.product_id!);
        return p ? deepCopy(p) : notFound('Product', r.product_id!);
      },
    },
    '/inventory/orders/create': {
      model: { product_id: req('str'), quantity: req('int'), supplier: opt('str') },
      handle: (r, ctx) => {
        // No product lookup and no stock change: an order for an unknown id succeeds too.
        const order = {
          product_id: r.product_id!,
          quantity: r.quantity!,
          supplier: r.supplier!,
          timestamp: ctx.timestamp(),
        };
        ctx.record('orders', order);
        return { status: 'created', order };
      },
    },
  },
});
