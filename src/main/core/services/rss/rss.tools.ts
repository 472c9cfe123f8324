import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.13, §7.1. No rss_get_feed: /rss/feeds/get does not exist upstream (§7.2). */
export const RSS_TOOLS: readonly ToolDef[] = [
  {
    name: 'rss_list_feeds',
    route: '/rss/feeds',
    writes: false,
    en: 'Get all RSS subscription feeds',
    zh: '获取所有RSS订阅源',
    params: { category: p('string', 'Filter by category', '按类别筛选') },
    required: [],
  },
  {
    name: 'rss_list_articles',
    route: '/rss/articles',
    writes: false,
    en: 'Get a list of articles',
    zh: '获取文章列表',
    params: {
      source: p('string', 'Filter by source', '按来源筛选'),
      category: p('string', 'Filter by category', '按类别筛选'),
      max_results: p('integer', 'Maximum number of results to return', '最大返回数量', 20),
    },
    required: [],
  },
  {
    name: 'rss_get_article',
    route: '/rss/articles/get',
    writes: false,
    en: 'Get the full content of an article',
    zh: '获取文章完整内容',
    params: { article_id: p('string', 'Article ID', '文章ID') },
    required: ['article_id'],
  },
  {
    name: 'rss_publish',
    route: '/rss/publish',
    writes: true,
    en: 'Publish a newsletter',
    zh: '发布Newsletter',
    params: {
      title: p('string', 'Newsletter title', 'Newsletter标题'),
      content: p('string', 'Newsletter content', 'Newsletter内容'),
      recipients: p('array', 'List of recipients', '接收者列表', []),
    },
    required: ['title', 'content'],
  },
];
