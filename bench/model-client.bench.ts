/**
 * The model client and the LLM generator's own work (issue 9), against the scripted
 * OpenAI-compatible server on loopback (test/helpers/scripted-openai.ts) — a model's own time is
 * not ours to measure, so what is timed here is what the app adds around it:
 *
 *   1. one chat request through createModelClient (openai 6, maxRetries 0, our retry loop, our
 *      per-attempt timer and abort race, zod check of the answer) — baseline in the same run: the
 *      same request with plain fetch + JSON.parse;
 *   2. the generator's per-candidate CPU work on an answer: parse it out of prose and a code fence,
 *      normalise it to the slot and the tool catalog, run every validator — baseline: the
 *      validators alone on the already-normalised spec;
 *   3. (informational) the size of the generation prompt for 1, 2 and 3 services.
 *
 * Goals: client overhead ≤ 2 ms per request over plain fetch (median); a candidate's CPU work
 * ≤ 20 ms. No assertions: figures only.
 */
import { createModelClient } from '../src/main/core/agents/model-client';
import { EXAMPLE_ANSWER } from '../src/main/core/generation/llm/example-task';
import { normaliseCandidate, type LlmSlot } from '../src/main/core/generation/llm/normalise';
import { parseAnswer } from '../src/main/core/generation/llm/parse-answer';
import { generateMessages } from '../src/main/core/generation/llm/prompt';
import { validate } from '../src/main/core/validation/validate';
import { chat, startScriptedOpenAI } from '../test/helpers/scripted-openai';
import { emit, header, ms, rate, ratio, table, throughput } from './lib/harness';

const BENCH = 'model-client';
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const RUNS = Number(process.env.BENCH_TASKS ?? 2000);
const NOW = new Date('2026-03-01T09:00:00Z');
const SLOT: LlmSlot = {
  id: 1,
  services: ['gmail', 'helpdesk'],
  category: 'operations',
  difficulty: 'medium',
  language: 'en',
  reference_date: '2026-04-10',
  scenario: 'cross_service',
};
const PROV = { generator: 'llm' as const, endpoint: 'bench', model: 'm', seed: 1, index: 0 };

async function main(): Promise<void> {
  header('model client and LLM generator: what the app adds around a model');
  const srv = await startScriptedOpenAI({ script: () => chat('pong') });
  const rows: string[][] = [];
  try {
    const client = createModelClient({
      name: 'bench',
      baseUrl: srv.baseUrl,
      model: 'm',
      apiKey: null,
      timeoutMs: 10_000,
    });
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'ping' }] });
    const raw = await throughput(async () => {
      const r = await fetch(`${srv.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return JSON.parse(await r.text());
    }, CALLS);
    const viaClient = await throughput(() => client.chat({ messages: [{ role: 'user', content: 'ping' }] }), CALLS);
    const overhead = viaClient.lat.median - raw.lat.median;
    rows.push([
      'chat request (loopback)',
      rate(viaClient.callsPerSec),
      ms(viaClient.lat.median),
      ms(viaClient.lat.p99),
      ms(raw.lat.median),
      ratio(viaClient.lat.median / raw.lat.median),
      overhead <= 2 ? 'met' : 'MISSED',
    ]);
    emit({
      bench: BENCH,
      name: 'chat request through the model client',
      median_ms: viaClient.lat.median,
      p99_ms: viaClient.lat.p99,
      calls_per_s: viaClient.callsPerSec,
      ratio: viaClient.lat.median / raw.lat.median,
      baseline: `plain fetch + JSON.parse, median ${ms(raw.lat.median)}`,
      goal: '≤ 2 ms over plain fetch',
      met: overhead <= 2,
    });
  } finally {
    await srv.close();
  }

  const text = `Here it is:\n\`\`\`json\n${JSON.stringify(EXAMPLE_ANSWER, null, 2)}\n\`\`\`\n`;
  const normalised = normaliseCandidate(EXAMPLE_ANSWER as never, SLOT, 'llm_s1_1_00000', PROV);
  const perCandidate = () => {
    const p = parseAnswer(text);
    if (!p.ok) throw new Error(p.reason);
    return validate(normaliseCandidate(p.value, SLOT, 'llm_s1_1_00000', PROV), [], { now: () => NOW });
  };
  if (!perCandidate().valid) throw new Error('the example should validate');
  const base = await throughput(() => validate(normalised, [], { now: () => NOW }), RUNS);
  const full = await throughput(perCandidate, RUNS);
  rows.push([
    'candidate: parse + normalise + validate',
    rate(full.callsPerSec),
    ms(full.lat.median),
    ms(full.lat.p99),
    ms(base.lat.median),
    ratio(full.lat.median / base.lat.median),
    full.lat.median <= 20 ? 'met' : 'MISSED',
  ]);
  emit({
    bench: BENCH,
    name: 'LLM candidate: parse + normalise + validate',
    median_ms: full.lat.median,
    p99_ms: full.lat.p99,
    calls_per_s: full.callsPerSec,
    ratio: full.lat.median / base.lat.median,
    baseline: `validators alone on the normalised spec, median ${ms(base.lat.median)}`,
    goal: '≤ 20 ms',
    met: full.lat.median <= 20,
  });
  console.log(table(['what', 'rate', 'median', 'p99', 'baseline median', 'ratio', 'goal'], rows));

  const sizes = [['gmail'], ['gmail', 'helpdesk'], ['gmail', 'helpdesk', 'calendar']].map((services) => {
    const m = generateMessages({ ...SLOT, services }, 1, 0);
    return [services.join(', '), String(m.reduce((n, x) => n + (x.content?.length ?? 0), 0))];
  });
  console.log(`\ngeneration prompt size (characters, system + user):\n${table(['services', 'chars'], sizes)}`);
}

void main();
