import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/main/core/services/environment';
import { kbService } from '../../src/main/core/services/kb/kb.service';
import { kbTokens, snippet } from '../../src/main/core/services/kb/tokenize';
import { dumpsPy, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T23:30:00Z');
const FIXTURE: PyValue[] = [
  {
    article_id: 'kb_001',
    title: 'VPN Guide',
    category: 'IT',
    tags: ['VPN', 'network'],
    content: 'Install the client.',
    last_updated: '2026-01-01',
    views: 10,
    author: 'a',
  },
  {
    article_id: 'kb_002',
    title: '报销流程',
    category: 'Finance',
    tags: ['报销'],
    content: '提交发票'.repeat(50),
    last_updated: '2026-01-02',
    views: 5,
  },
  { article_id: 'kb_003', title: 'Zq', category: 'IT', tags: [], content: 'xy', last_updated: '2026-01-03', views: 0 },
];
const make = () => new ServiceInstance(kbService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => s.request('POST', path, body);
const json = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => post(s, path, body).json as PyObject;
const ids = (r: PyObject) => (r.articles as PyObject[]).map((a) => a.article_id);
const calls = <S>(s: ServiceInstance<S>) => s.audit().calls as PyObject[];

describe('kb tokeniser', () => {
  it('keeps whole lowercased words with punctuation, every non-blank pair, and CJK characters', () => {
    const t = kbTokens('Hi, VPN 报销');
    expect([...t].sort()).toEqual(
      [' v', ' 报', ', ', 'hi', 'hi,', 'i,', 'n ', 'pn', 'vp', 'vpn', '报', '报销', '销'].sort(),
    );
    expect(kbTokens('a  b').has('  ')).toBe(false);
    expect(kbTokens('a  b').has('a ')).toBe(true);
  });

  it('uses Python whitespace and code points, not JS \\s and UTF-16 units', () => {
    expect(kbTokens('a\u001fb').has('a')).toBe(true); // U+001F splits in Python
    expect(kbTokens('a\ufeffb').has('a\ufeffb')).toBe(true); // U+FEFF does not
    expect(kbTokens('x😀').has('x😀')).toBe(true);
    expect(snippet('😀'.repeat(200))).toBe(`${'😀'.repeat(150)}...`);
    expect(snippet('short')).toBe('short...');
  });
});

describe('kb service', () => {
  it('matches on any shared token, in fixture order, with summary items ending in a snippet', () => {
    const s = make();
    expect(ids(json(s, '/kb/search', { query: 'vpn' }))).toEqual(['kb_001']);
    expect(ids(json(s, '/kb/search', { query: '发票怎么办' }))).toEqual(['kb_002']);
    expect(ids(json(s, '/kb/search', { query: 'zq xy' }))).toEqual(['kb_003']);
    expect(ids(json(s, '/kb/search', { query: 'q' }))).toEqual([]);
    const r = json(s, '/kb/search', { query: 'guide' });
    expect(dumpsPy(r)).toBe(
      '{"articles": [{"article_id": "kb_001", "title": "VPN Guide", "category": "IT", "tags": ["VPN", "network"], ' +
        '"last_updated": "2026-01-01", "views": 10, "snippet": "Install the client...."}], "total": 1}',
    );
    expect(((json(s, '/kb/search', { query: '报销' }).articles as PyObject[])[0]!.snippet as string).length).toBe(153);
  });

  it('filters on an exact category when one is given and truncates with Python slices', () => {
    const s = make();
    expect(ids(json(s, '/kb/search', { query: 'the zq 发票', category: 'IT' }))).toEqual(['kb_001', 'kb_003']);
    expect(ids(json(s, '/kb/search', { query: 'the zq 发票', category: 'it' }))).toEqual([]);
    expect(ids(json(s, '/kb/search', { query: 'the zq 发票', category: '' }))).toEqual(['kb_001', 'kb_002', 'kb_003']);
    expect(json(s, '/kb/search', { query: 'the zq 发票', max_results: 2 }).total).toBe(2);
    expect(json(s, '/kb/search', { query: 'the zq 发票', max_results: 0 })).toEqual({ articles: [], total: 0 });
    expect(ids(json(s, '/kb/search', { query: 'the zq 发票', max_results: '-1' }))).toEqual(['kb_001', 'kb_002']);
    expect(calls(s)[0]!.request_body).toEqual({ query: 'the zq 发票', category: 'IT', max_results: 5 });
    expect(calls(s)[5]!.request_body).toEqual({ query: 'the zq 发票', category: null, max_results: -1 });
  });

  it('requires query: the health probe and {} are 422s and are not logged', () => {
    const env = new Environment({ services: [{ id: 'kb', records: FIXTURE }], tools: [], now: () => NOW });
    expect(env.audits().kb).toEqual({ calls: [], updates: [] });
    const s = make();
    expect(post(s, '/kb/search', {}).json).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'query'], msg: 'Field required', input: {} }],
    });
    expect(post(s, '/kb/search', { query: 'a', category: ['HR'] }).status).toBe(422);
    expect(post(s, '/kb/search', { query: 'a', max_results: 'many' }).status).toBe(422);
    expect(calls(s)).toEqual([]);
  });

  it('gets a deep copy of the full record or a logged not-found', () => {
    const s = make();
    const a = json(s, '/kb/articles/get', { article_id: 'kb_001' });
    expect(Object.keys(a)).toEqual([
      'article_id',
      'title',
      'category',
      'tags',
      'content',
      'last_updated',
      'views',
      'author',
    ]);
    (a.tags as string[]).push('x');
    expect(json(s, '/kb/articles/get', { article_id: 'kb_001' }).tags).toEqual(['VPN', 'network']);
    expect(post(s, '/kb/articles/get', { article_id: 'kb_9' })).toEqual({
      status: 200,
      json: { error: 'Article kb_9 not found' },
    });
    expect(calls(s)).toHaveLength(3);
  });

  it('updates content in place, stamps the UTC date and records {article_id, timestamp}', () => {
    const s = make();
    expect(json(s, '/kb/articles/update', { article_id: 'kb_003', content: 'new text' })).toEqual({
      status: 'updated',
      article_id: 'kb_003',
    });
    const a = json(s, '/kb/articles/get', { article_id: 'kb_003' });
    expect([a.content, a.last_updated]).toEqual(['new text', '2026-03-05']);
    expect(s.audit().updates).toEqual([{ article_id: 'kb_003', timestamp: '2026-03-05T23:30:00+00:00' }]);
    expect(ids(json(s, '/kb/search', { query: 'ext' }))).toEqual(['kb_003']);
    expect(json(s, '/kb/articles/update', { article_id: 'kb_9', content: 'x' })).toEqual({
      error: 'Article kb_9 not found',
    });
    expect(s.audit().updates).toHaveLength(1);
    expect(post(s, '/kb/articles/update', { article_id: 'kb_001' }).status).toBe(422);
    expect(Object.keys(s.audit())).toEqual(['calls', 'updates']);
  });

  it('reset restores the fixture and clears the audit', () => {
    const s = make();
    json(s, '/kb/articles/update', { article_id: 'kb_003', content: 'new text' });
    post(s, '/kb/reset');
    expect(s.audit()).toEqual({ calls: [], updates: [] });
    expect(json(s, '/kb/articles/get', { article_id: 'kb_003' }).content).toBe('xy');
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it('the record schema refuses tags that are not a list', () => {
    expect(
      kbService.recordSchema.safeParse({
        article_id: 'a',
        title: 'b',
        category: 'c',
        tags: 'd',
        content: '',
        last_updated: '',
        views: 1,
      }).success,
    ).toBe(false);
  });
});
