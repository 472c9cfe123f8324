import { z } from 'zod';
import { defineService } from '../define';
import { count, dateText } from '../record-fields';
import { deepCopy, findBy, notFound, objects, project, pySlice } from '../lib';
import type { PyObject, PyValue } from '../../py/pyjson';
import { opt, req } from '../request-model';

/**
 * reference/claw-eval.md §6.13. There is no /rss/feeds/get upstream (rss_get_feed → 404), and
 * the `feed_name` parameter some schemas expose is ignored.
 */
const ArticleRecord = z.looseObject({
  article_id: z.string(),
  title: z.string(),
  source: z.string(),
  category: z.string(),
  published_at: dateText(),
  summary: z.string(),
  content: z.string(),
  word_count: count(),
});

type State = { articles: PyObject[] };
const SUMMARY = ['article_id', 'title', 'source', 'category', 'published_at', 'summary', 'word_count'] as const;

/**
 * Upstream collects each source's categories in a Python set, whose iteration order depends on
 * the process hash seed; first-appearance order is one of the orders it can produce.
 */
function feeds(articles: PyObject[]): PyObject[] {
  const bySource = new Map<string, { source: PyValue; categories: PyValue[]; article_count: number }>();
  for (const a of articles) {
    const key = JSON.stringify(a.source ?? null);
    let f = bySource.get(key);
    if (!f) bySource.set(key, (f = { source: a.source!, categories: [], article_count: 0 }));
    if (!f.categories.includes(a.category!)) f.categories.push(a.category!);
    f.article_count++;
  }
  return [...bySource.values()];
}

export const rssService = defineService<State>({
  id: 'rss',
  port: 9109,
  fixtureEnv: 'RSS_FIXTURES',
  defaultFixture: 'tasks/T021zh_newsletter_curation/fixtures/rss/articles.json',
  probe: { method: 'POST', path: '/rss/articles' },
  actionKeys: ['published'],
  recordSchema: ArticleRecord,
  recordKey: 'article_id',
  upstreamReads: ['article_id', 'title', 'source', 'category', 'published_at', 'summary', 'word_count'],
  load: (records) => ({ articles: objects(records) }),
  routes: {
    '/rss/feeds': {
      model: { category: opt('str') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        const list = feeds(state.articles.filter((a) => !r.category || a.category === r.category));
        return { feeds: list, total: list.length };
      },
    },
    '/rss/articles': {
      model: { source: opt('str'), category: opt('str'), max_results: opt('int', 20) },
      noBody: 'defaults',
      handle: (r, { state }) => {
        const hits = state.articles.filter(
          (a) => (!r.source || a.source === r.source) && (!r.category || a.category === r.category),
        );
        const articles = pySlice(hits, r.max_results as number).map((a) => project(a, SUMMARY));
        return { articles, total: articles.length };
      },
    },
    '/rss/articles/get': {
      model: { article_id: req('str') },
      handle: (r, { state }) => {
        const a = findBy(state.articles, 'article_id', r.article_id!);
        return a ? deepCopy(a) : notFound('Article', r.article_id!);
      },
    },
    '/rss/publish': {
      model: { title: req('str'), content: req('str'), recipients: opt('list[str]', []) },
      handle: (r, ctx) => {
        const record = { title: r.title!, content: r.content!, recipients: r.recipients!, timestamp: ctx.timestamp() };
        ctx.record('published', record);
        return { status: 'published', record };
      },
    },
  },
});
