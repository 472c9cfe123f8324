import { p, type ToolDef } from '../tool-def';

/**
 * reference/claw-eval.md §6.12, §7.1. The product names (upstream also uses the aliases
 * inventory_list_items / inventory_get_item for the same routes); the list filters by category only.
 */
export const INVENTORY_TOOLS: readonly ToolDef[] = [
  {
    name: 'inventory_list_products',
    route: '/inventory/products',
    writes: false,
    en: 'Get the product inventory list (full records)',
    zh: '获取商品库存列表（完整信息）',
    params: { category: p('string', 'Filter by category', '按类别筛选') },
    required: [],
  },
  {
    name: 'inventory_get_product',
    route: '/inventory/products/get',
    writes: false,
    en: 'Get detailed inventory information for a single product',
    zh: '获取单个商品的详细库存信息',
    params: { product_id: p('string', 'Product ID', '商品ID') },
    required: ['product_id'],
  },
  {
    name: 'inventory_create_order',
    route: '/inventory/orders/create',
    writes: true,
    en: 'Create a restock order',
    zh: '创建补货订单',
    params: {
      product_id: p('string', 'Product ID', '商品ID'),
      quantity: p('integer', 'Restock quantity', '补货数量'),
      supplier: p('string', 'Supplier', '供应商'),
    },
    required: ['product_id', 'quantity'],
  },
];
