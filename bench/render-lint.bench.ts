/**
 * The render check of `coworkenv export lint` (issue 18 item 9): a written 10,000-record OpenAI export (τ-bench,
 * τ²-bench and Claw-Eval records cycled: agent conversations of 2–15 k tokens) re-linted with the trainer's rules
 * only (the baseline, same run, same files), then with every record rendered by a shipped chat template and
 * measured: in characters, in Qwen2.5 tokens, in Llama 3.1 tokens. Tokenizer loading (once per process) is timed
 * apart. No assertions: figures and ratios only.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Trajectory } from '../src/shared/contract/entities/trajectory';
import { exportSft, lintExport, type SftRecord } from '../src/main/core/export/sft';
import { RenderCheck } from '../src/main/core/export/sft/render/render-check';
import { tokenCounter } from '../src/main/core/export/sft/render/token-counter';
import type { ChatTemplateId, LengthBudget } from '../src/shared/contract/entities/export';
import { emit, header, ratio, table, tempDir } from './lib/harness';

const BENCH = 'render-lint';
const N = Number(process.env.BENCH_RECORDS ?? 10_000);

async function corpus(): Promise<Trajectory[]> {
  const h = await import('../test/helpers/sft-corpus');
  return [
    ...h.tauBenchTrajectories().map((r) => r.t),
    ...h.tau2Trajectories().map((r) => r.t),
    ...h.clawTrajectories().map((t) => ({ ...t, tools: [] })),
  ];
}

function records(all: Trajectory[]): SftRecord[] {
  return Array.from({ length: N }, (_, i) => {
    const t = all[i % all.length]!;
    return { recordId: `r${i}`, taskId: `t${i}`, trial: 0, reward: 1, bucket: 'KEEP', pool: 'open', trajectory: t };
  });
}

async function main() {
  header(`${BENCH}: export lint of ${N.toLocaleString('en-US')} records (those exported), with and without rendering`);
  const tmp = tempDir('bench-render-');
  try {
    const out = path.join(tmp.dir, 'openai');
    const options = {
      pools: { open: { minReward: null, converter: false } },
      requireToolSchemas: false,
      renderCheck: false,
    };
    const res = exportSft({ records: records(await corpus()), dialect: 'openai', outDir: out, options });
    const time = (f: () => void) => {
      const t0 = performance.now();
      f();
      return performance.now() - t0;
    };
    const base = time(() => lintExport(out));
    const loads = (['qwen2.5', 'llama3.1'] as const).map((id) => time(() => tokenCounter(id).count('warm up')));
    const runs: [string, ChatTemplateId, LengthBudget][] = [
      ['rendered, characters (qwen2.5)', 'qwen2.5', { unit: 'chars', max: 40_000 }],
      ['rendered, qwen2.5 tokens', 'qwen2.5', { unit: 'tokens', max: 1024 }],
      ['rendered, llama3.1 tokens', 'llama3.1', { unit: 'tokens', max: 1024 }],
    ];
    const rows = [['lint only (baseline)', `${(base / 1000).toFixed(1)} s`, '×1.00', '', '']];
    for (const [name, id, budget] of runs) {
      const check = new RenderCheck('openai', id, budget);
      const ms = time(() => lintExport(out, check));
      const s = check.summary();
      const r = ms / base;
      rows.push([name, `${(ms / 1000).toFixed(1)} s`, ratio(r), `${s.failed}`, `${s.lengths?.median ?? '—'}`]);
      const perRecord = ms / res.report.exported;
      emit({ bench: BENCH, name, median_ms: perRecord, ratio: r, baseline: 'lint only, same run (per record)' });
    }
    console.log(`${res.report.exported.toLocaleString('en-US')} records exported`);
    console.log(table(['run', 'wall', 'ratio', 'refused', 'median length'], rows));
    console.log(
      `tokenizer load (once per process): qwen2.5 ${loads[0]!.toFixed(0)} ms, llama3.1 ${loads[1]!.toFixed(0)} ms`,
    );
  } finally {
    tmp.cleanup();
  }
}

void main();
