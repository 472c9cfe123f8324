import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.10, §7.1. */
export const KB_TOOLS: readonly ToolDef[] = [
  {
    name: 'kb_search',
    route: '/kb/search',
    writes: false,
    en: 'Search knowledge base articles',
    zh: '搜索知识库文章',
    params: {
      query: p('string', 'Search keywords', '搜索关键词'),
      category: p('string', 'Filter by category', '按类别筛选'),
      max_results: p('integer', 'Maximum number of results to return', '最大返回数量', 5),
    },
    required: ['query'],
  },
  {
    name: 'kb_get_article',
    route: '/kb/articles/get',
    writes: false,
    en: 'Get knowledge base article details',
    zh: '获取知识库文章详情',
    params: { article_id: p('string', 'Article ID', '文章ID') },
    required: ['article_id'],
  },
  {
    name: 'kb_update_article',
    route: '/kb/articles/update',
    writes: true,
    en: 'Update knowledge base article content',
    zh: '更新知识库文章内容',
    params: {
      article_id: p('string', 'Article ID', '文章ID'),
      content: p('string', 'Updated content (replaces the whole text)', '更新后的内容（替换全文）'),
    },
    required: ['article_id', 'content'],
  },
];
