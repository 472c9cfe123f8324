import { z } from 'zod';
import { defineService } from '../define';
import { count, dateText } from '../record-fields';
import { deepCopy, findBy, notFound, objects, project, pySlice } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';
import { intersects, kbTokens, snippet } from './tokenize';

/**
 * Article token sets by article text: every search tokenised every article (≈ 300 µs per search on
 * T015). Keyed by the text itself, so an updated article simply misses; bounded, cleared when full.
 */
const tokenCache = new Map<string, Set<string>>();
function articleTokens(text: string): Set<string> {
  let t = tokenCache.get(text);
  if (!t) {
    if (tokenCache.size >= 4096) tokenCache.clear();
    tokenCache.set(text, (t = kbTokens(text)));
  }
  return t;
}

/**
 * reference/claw-eval.md §6.10. `query` is required, so the body-less health probe answers 422
 * and is not logged (Q4).
 */
const ArticleRecord = z.looseObject({
  article_id: z.string(),
  title: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  content: z.string(),
  last_updated: dateText(),
  views: count(),
});

type State = { articles: PyObject[] };
const SUMMARY = ['article_id', 'title', 'category', 'tags', 'last_updated', 'views'] as const;

const str = (v: unknown): string => {
  // Python's str concatenation / " ".join raise TypeError on non-strings (→ 500).
  if (typeof v !== 'string') throw new TypeError('expected str');
  return v;
};

function articleText(a: PyObject): string {
  const tags = a.tags;
  if (!Array.isArray(tags)) throw new TypeError('tags');
  return `${str(a.title)} ${tags.map(str).join(' ')} ${str(a.content)}`;
}

export const kbService = defineService<State>({
  id: 'kb',
  port: 9106,
  fixtureEnv: 'KB_FIXTURES',
  defaultFixture: 'tasks/T015zh_kb_search/fixtures/kb/articles.json',
  probe: { method: 'POST', path: '/kb/search' },
  actionKeys: ['updates'],
  recordSchema: ArticleRecord,
  recordKey: 'article_id',
  upstreamReads: ['article_id', 'title', 'category', 'tags', 'content', 'last_updated', 'views'],
  load: (records) => ({ articles: objects(records) }),
  routes: {
    '/kb/search': {
      model: { query: req('str'), category: opt('str'), max_results: opt('int', 5) },
      handle: (r, { state }) => {
        const q = kbTokens(r.query as string);
        const category = r.category as string | null;
        const hits = state.articles.filter(
          (a) => (!category || a.category === category) && intersects(q, articleTokens(articleText(a))),
        );
        // Summary items share `tags` with the stored article (no copy), as upstream's dict literal does.
        const articles = pySlice(hits, r.max_results as number).map((a) => ({
          ...project(a, SUMMARY),
          snippet: snippet(str(a.content)),
        }));
        return { articles, total: articles.length };
      },
    },
    '/kb/articles/get': {
      model: { article_id: req('str') },
      handle: (r, { state }) => {
        const a = findBy(state.articles, 'article_id', r.article_id!);
        return a ? deepCopy(a) : notFound('Article', r.article_id!);
      },
    },
    '/kb/articles/update': {
      model: { article_id: req('str'), content: req('str') },
      handle: (r, ctx) => {
        const a = findBy(ctx.state.articles, 'article_id', r.article_id!);
        if (!a) return notFound('Article', r.article_id!);
        a.content = r.content!;
        a.last_updated = ctx.now().toISOString().slice(0, 10);
        ctx.record('updates', { article_id: r.article_id!, timestamp: ctx.timestamp() });
        return { status: 'updated', article_id: r.article_id! };
      },
    },
  },
});
