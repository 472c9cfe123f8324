import { z } from 'zod';
import { defineService } from '../define';
import { int } from '../record-fields';
import { objects, project, pySlice } from '../lib';
import { dumpsPy, numeric, type PyObject, type PyValue } from '../../py/pyjson';
import { opt, req } from '../request-model';
import { overlap, tokenize } from './tokenize';

/**
 * reference/claw-eval.md §6.17: the fixture-backed web (T043/T044). Two fixture files: search
 * results (WEB_SEARCH_FIXTURES, the main one) and fetchable pages (WEB_FETCH_FIXTURES).
 */
const SearchRecord = z.looseObject({
  url: z.string(),
  title: z.string(),
  snippet: z.string(),
  source: z.string(),
  published_at: z.string(),
  keywords: z.array(z.string()),
});

const PageRecord = z.looseObject({
  url: z.string(),
  status_code: int(),
  title: z.string(),
  content_type: z.string(),
  // The error pages carry `content: null` next to their `error`.
  content: z.string().nullable(),
});

type State = { results: PyObject[]; pages: PyObject[] };

/** Python `d.get(k, fallback)`. */
const get = (r: PyObject, k: string, fallback: PyValue): PyValue => (k in r ? r[k]! : fallback);

/** Tokens of an item: the union over its keyword entries (title and snippet are not searched). */
function keywordTokens(item: PyObject): Set<string> {
  const kws = get(item, 'keywords', []);
  // Python iterates whatever is there: a string yields its characters; None or a number raises (→ 500).
  const entries = typeof kws === 'string' ? [...kws] : kws;
  if (!Array.isArray(entries)) throw new TypeError('keywords is not iterable');
  const out = new Set<string>();
  for (const kw of entries) {
    if (typeof kw !== 'string') throw new TypeError('keyword is not a string');
    for (const t of tokenize(kw)) out.add(t);
  }
  return out;
}

const resultItem = (r: PyObject): PyObject => ({
  ...project(r, ['url', 'title', 'snippet']),
  source: get(r, 'source', ''),
  published_at: get(r, 'published_at', ''),
});

export const webService = defineService<State>({
  id: 'web',
  port: 9113,
  fixtureEnv: 'WEB_SEARCH_FIXTURES',
  defaultFixture: 'tasks/T043zh_service_outage_research/fixtures/web/search_results.json',
  extraFixtures: [
    {
      env: 'WEB_FETCH_FIXTURES',
      defaultFixture: 'tasks/T043zh_service_outage_research/fixtures/web/pages.json',
      recordSchema: PageRecord,
      recordKey: 'url',
      // Fetch matches page["url"]; every other page field is read with .get and a default.
      upstreamReads: ['url'],
    },
  ],
  // A GET, so the probe never reaches a logged route: web's audit starts empty (unlike 11 of the mocks).
  probe: { method: 'GET', path: '/web/health' },
  actionKeys: ['notifications'],
  recordSchema: SearchRecord,
  recordKey: 'url',
  // Search reads keywords with .get, then url, title and snippet of each hit as item["…"].
  upstreamReads: ['url', 'title', 'snippet'],
  load: (records, _now, [pages = []]) => ({ results: objects(records), pages: objects(pages) }),
  getRoutes: { '/web/health': () => ({ status: 'ok' }) },
  routes: {
    '/web/search': {
      model: { query: req('str'), max_results: opt('int', 10) },
      handle: (r, { state }) => {
        const q = tokenize(r.query as string);
        const scored = state.results
          .map((item, index) => ({ item, index, score: overlap(q, keywordTokens(item)) }))
          .filter((s) => s.score > 0)
          // Stable: equal scores keep fixture order.
          .sort((a, b) => b.score - a.score || a.index - b.index);
        const results = pySlice(scored, r.max_results as number).map((s) => resultItem(s.item));
        return { results, total: results.length, query: r.query! };
      },
    },
    '/web/fetch': {
      // timeout_seconds is accepted (and validated as an int) but never used.
      model: { url: req('str'), timeout_seconds: opt('int', 30) },
      handle: (r, ctx): PyObject => {
        const url = r.url!;
        const page = ctx.state.pages.find((p) => p.url === url);
        // Unknown URLs and error pages are still HTTP 200 and logged; only the body says 404/503.
        if (!page) return { status_code: 404, url, error: 'Page not found or unavailable', content: null };
        const status = get(page, 'status_code', 200);
        const code = numeric(status);
        if (code === undefined) throw new TypeError('status_code is not a number');
        if (code >= 400)
          return { status_code: status, url, error: get(page, 'error', `HTTP ${dumpsPy(status)}`), content: null };
        return {
          status_code: status,
          url,
          title: get(page, 'title', ''),
          content: get(page, 'content', ''),
          content_type: get(page, 'content_type', 'text/html'),
          fetched_at: ctx.timestamp(),
        };
      },
    },
    '/web/notify': {
      model: { channel: req('str'), message: req('str'), recipients: opt('list[str]', []) },
      handle: (r, ctx) => {
        const record = {
          channel: r.channel!,
          message: r.message!,
          recipients: r.recipients!,
          timestamp: ctx.timestamp(),
        };
        ctx.record('notifications', record);
        return { status: 'sent', record };
      },
    },
  },
});
