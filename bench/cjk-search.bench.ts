/**
 * CJK substring search (issue 21 item 8) on BENCH_TRAJ search texts (default 100,000; a third hold
 * Chinese): the search's id set (textIds, as trajectories.search and the grid's text filter run it)
 * counted, for a 2-character term (LIKE over trajectories_cjk, which holds only the CJK runs), a
 * 4-character term (trigram MATCH) and a mixed query. Compared in the same run with an English word
 * query on the word index (the baseline) and with LIKE over the full texts (what a fallback without
 * the CJK-only table would scan). Goal: < 100 ms per search.
 */
import Database from 'better-sqlite3';
import { emit, header, ms, ratio, sample, stats, table } from './lib/harness';
import { cjkText } from '../src/main/core/trajectories/cjk-search';
import { textIds } from '../src/main/core/trajectories/text-filter';

const N = Number(process.env.BENCH_TRAJ ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GOAL = 100;

const HAN = [
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动',
  '同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自',
  '二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日',
  '那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变',
  '条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总',
  '次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指',
  '几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器',
  '压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安',
  '场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集',
  '温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连',
  '断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精',
  '值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属',
  '圆包火住调满县局照参红细引听该铁价严龙飞',
].join('');
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
const pick = (s: string) => s[Math.floor(rnd() * s.length)]!;
const WORDS =
  'send the inventory report to finance please check stock levels ticket close reply calendar meeting'.split(' ');
const english = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
const chinese = (n: number) => Array.from({ length: n }, () => pick(HAN)).join('');

async function main() {
  header(`cjk-search: ${N.toLocaleString('en-US')} search texts (${RUNS} runs)`);
  const db = new Database(':memory:');
  db.exec(`
    CREATE VIRTUAL TABLE trajectories_fts USING fts5 (
      text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE trajectories_cjk USING fts5 (text, tokenize = 'trigram');
    CREATE TABLE full_text (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
  `);
  const t0 = performance.now();
  let cjkChars = 0;
  let allChars = 0;
  db.transaction(() => {
    const fts = db.prepare('INSERT INTO trajectories_fts (rowid, text) VALUES (?, ?)');
    const cjk = db.prepare('INSERT INTO trajectories_cjk (rowid, text) VALUES (?, ?)');
    const full = db.prepare('INSERT INTO full_text (id, text) VALUES (?, ?)');
    for (let id = 1; id <= N; id++) {
      const text =
        id % 3 === 0
          ? `${chinese(40)}，${chinese(30)}。\n${english(20)}\n${chinese(60)}`
          : `${english(60)}\nrefund_order {"order_id": "#W${id}"}\n${english(30)}`;
      fts.run(id, text);
      full.run(id, text);
      const c = cjkText(text);
      if (c) cjk.run(id, c);
      cjkChars += c.length;
      allChars += text.length;
    }
  })();
  console.log(
    `indexed in ${ms(performance.now() - t0)}; CJK-only text is ${((100 * cjkChars) / allChars).toFixed(0)}% ` +
      'of the full text',
  );
  const naive = (term: string) => () =>
    db.prepare('SELECT count(*) AS n FROM full_text WHERE text LIKE ?').get(`%${term}%`);
  const count = (q: string) => {
    const ids = textIds({ query: q, mode: 'words' });
    return (db.prepare(`SELECT count(*) AS n FROM (${ids.sql})`).get(...ids.params) as { n: number }).n;
  };
  // Terms cut from an indexed text, so each search finds rows (a term no row holds is answered at once).
  const sampleText = (db.prepare('SELECT text FROM trajectories_cjk WHERE rowid = 3').get() as { text: string }).text;
  const two = sampleText.slice(5, 7);
  const four = sampleText.slice(10, 14);
  console.log(`hits: "${two}" ${count(two)}, "中" ${count('中')}, "${four}" ${count(four)}`);
  const cases: [string, () => unknown][] = [
    [`2-char term "${two}" (LIKE on trajectories_cjk)`, () => count(two)],
    [`1-char term "中" (LIKE on trajectories_cjk)`, () => count('中')],
    [`4-char term "${four}" (trigram MATCH)`, () => count(four)],
    [`mixed "${two} inventory"`, () => count(`${two} inventory`)],
    [`2-char term, LIKE over the full texts (no CJK table)`, naive(two)],
  ];
  const base = stats(await sample(() => count('inventory'), RUNS, 2));
  const rows: string[][] = [['English word "inventory" (baseline)', ms(base.median), ms(base.p95), '×1.00', '']];
  for (const [name, fn] of cases) {
    const s = stats(await sample(fn, RUNS, 2));
    const met = s.median < GOAL;
    rows.push([name, ms(s.median), ms(s.p95), ratio(s.median / base.median), met ? 'met' : 'MISSED']);
    emit({
      bench: 'cjk-search',
      name,
      median_ms: s.median,
      p95_ms: s.p95,
      ratio: s.median / base.median,
      baseline: 'English word query on the word index',
      goal: `< ${GOAL} ms`,
      met,
    });
  }
  console.log(table(['search', 'median', 'p95', 'vs baseline', `goal < ${GOAL} ms`], rows));
  db.close();
}

void main();
