import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { rssService } from '../../src/main/core/services/rss/rss.service';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00Z');
const article = (n: number, source: string, category: string): PyObject => ({
  article_id: `rss_${n}`,
  title: `Title ${n}`,
  source,
  category,
  published_at: '2026-02-27T08:00:00Z',
  summary: `Summary ${n}`,
  content: `Content ${n}`,
  relevance_tags: ['x'],
  word_count: 100 + n,
});
const FIXTURE: PyValue[] = [
  article(1, 'AI Daily', 'AI'),
  article(2, 'Gossip', 'Fun'),
  article(3, 'AI Daily', 'Cloud'),
  article(4, 'AI Daily', 'AI'),
  article(5, 'Ops', 'Cloud'),
];
const make = () => new ServiceInstance(rssService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => s.request('POST', p, body);
const ids = (r: { json?: PyValue }) => ((r.json as PyObject).articles as PyObject[]).map((t) => t.article_id);

describe('rss: feeds', () => {
  it('derives one feed per source in first-appearance order, counting articles', () => {
    expect(post(make(), '/rss/feeds', {}).json).toEqual({
      feeds: [
        { source: 'AI Daily', categories: ['AI', 'Cloud'], article_count: 3 },
        { source: 'Gossip', categories: ['Fun'], article_count: 1 },
        { source: 'Ops', categories: ['Cloud'], article_count: 1 },
      ],
      total: 3,
    });
  });

  it('filters articles by category before grouping; "" means no filter', () => {
    const s = make();
    expect(post(s, '/rss/feeds', { category: 'Cloud' }).json).toEqual({
      feeds: [
        { source: 'AI Daily', categories: ['Cloud'], article_count: 1 },
        { source: 'Ops', categories: ['Cloud'], article_count: 1 },
      ],
      total: 2,
    });
    expect((post(s, '/rss/feeds', { category: '' }).json as PyObject).total).toBe(3);
    expect(post(s, '/rss/feeds', { category: 'none' }).json).toEqual({ feeds: [], total: 0 });
  });

  it('has no /rss/feeds/get route (404, unlogged)', () => {
    const s = make();
    expect(post(s, '/rss/feeds/get', { feed_id: 'x' })).toEqual({ status: 404, json: { detail: 'Not Found' } });
    expect(s.audit().calls).toEqual([]);
  });

  it('the health probe uses the task route: /rss/articles by default, /rss/feeds when the task says so', () => {
    const env = new Environment({ services: [{ id: 'rss', records: FIXTURE }], tools: [], now: () => NOW });
    expect((env.audits().rss!.calls as PyObject[])[0]).toMatchObject({
      endpoint: '/rss/articles',
      request_body: { source: null, category: null, max_results: 20 },
    });
    const env2 = new Environment({
      services: [{ id: 'rss', records: FIXTURE, probe: { method: 'POST', path: '/rss/feeds' } }],
      tools: [],
      now: () => NOW,
    });
    expect((env2.audits().rss!.calls as PyObject[]).map((c) => [c.endpoint, c.request_body])).toEqual([
      ['/rss/feeds', { category: null }],
    ]);
  });
});

describe('rss: articles', () => {
  it('filters by source and category exactly, truncates with Python slice semantics', () => {
    const s = make();
    expect(ids(post(s, '/rss/articles', {}))).toEqual(['rss_1', 'rss_2', 'rss_3', 'rss_4', 'rss_5']);
    expect(ids(post(s, '/rss/articles', { source: 'AI Daily', category: 'AI' }))).toEqual(['rss_1', 'rss_4']);
    expect(ids(post(s, '/rss/articles', { source: '', category: 'Cloud', feed_name: 'Ops' }))).toEqual([
      'rss_3',
      'rss_5',
    ]);
    expect(post(s, '/rss/articles', { max_results: '2' }).json).toMatchObject({ total: 2 });
    expect(ids(post(s, '/rss/articles', { max_results: -2 }))).toEqual(['rss_1', 'rss_2', 'rss_3']);
    expect(post(s, '/rss/articles', { max_results: 0 }).json).toEqual({ articles: [], total: 0 });
  });

  it('list items are the summary projection (no content, no tags) in upstream key order', () => {
    const r = post(make(), '/rss/articles', { max_results: 1 });
    expect(dumpsPy(r.json)).toBe(
      '{"articles": [{"article_id": "rss_1", "title": "Title 1", "source": "AI Daily", "category": "AI", ' +
        '"published_at": "2026-02-27T08:00:00Z", "summary": "Summary 1", "word_count": 101}], "total": 1}',
    );
  });

  it('get returns the full record as a deep copy, or "Article <id> not found"', () => {
    const s = make();
    const r = post(s, '/rss/articles/get', { article_id: 'rss_3' });
    expect(r.json).toEqual(FIXTURE[2]);
    ((r.json as PyObject).relevance_tags as PyValue[]).push('y');
    expect((post(s, '/rss/articles/get', { article_id: 'rss_3' }).json as PyObject).relevance_tags).toEqual(['x']);
    expect(post(s, '/rss/articles/get', { article_id: 'rss_9' }).json).toEqual({ error: 'Article rss_9 not found' });
  });

  it('422s for wrong types are unlogged', () => {
    const s = make();
    expect(post(s, '/rss/articles', { max_results: 'twenty' }).json).toEqual({
      detail: [
        {
          type: 'int_parsing',
          loc: ['body', 'max_results'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'twenty',
        },
      ],
    });
    expect(post(s, '/rss/feeds', { category: ['AI'] }).status).toBe(422);
    expect(post(s, '/rss/articles/get', {}).status).toBe(422);
    expect(s.audit().calls).toEqual([]);
  });
});

describe('rss: publish', () => {
  it('records title, content, recipients (default []) and timestamp; reset clears it', () => {
    const s = make();
    const r = post(s, '/rss/publish', { title: 't', content: 'c', extra: 1 });
    const record = { title: 't', content: 'c', recipients: [], timestamp: '2026-03-05T09:00:00+00:00' };
    expect(dumpsPy(r.json)).toBe(dumpsPy({ status: 'published', record }));
    post(s, '/rss/publish', { title: 't2', content: 'c2', recipients: ['a@x'] });
    const a = s.audit();
    expect(Object.keys(a)).toEqual(['calls', 'published']);
    expect((a.published as PyObject[]).map((p) => p.recipients)).toEqual([[], ['a@x']]);
    expect((a.calls as PyObject[])[0]!.request_body).toEqual({ title: 't', content: 'c', recipients: [] });
    expect(post(s, '/rss/publish', { title: 't' }).status).toBe(422);
    expect(post(s, '/rss/publish', { title: 't', content: 'c', recipients: [1] }).status).toBe(422);
    post(s, '/rss/reset');
    expect(s.audit()).toEqual({ calls: [], published: [] });
  });
});

describe('rss: record schema', () => {
  // Every corpus fixture record against the schema: test/services/registry.test.ts.
  it('rejects a record without content or word_count', () => {
    const { content: _, ...noContent } = article(1, 's', 'c');
    expect(rssService.recordSchema.safeParse(noContent).success).toBe(false);
    expect(rssService.recordSchema.safeParse({ ...article(1, 's', 'c'), word_count: '100' }).success).toBe(false);
  });
});
