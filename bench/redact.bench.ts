/**
 * Redaction cost on real trajectories (core/lib/redact.ts), as an export pays it: redactValue over
 * each of the 200 τ-bench trajectories (../shared/corpora/trajectories/tau-bench, 4 MB), per
 * trajectory and in MB/s. Baseline (same run): JSON.stringify of the same trajectory, which any
 * export does anyway. Also one long tool-result string (the Claw-Eval T028 integrations as JSON text).
 * No goal: the figures say whether redaction on by default is affordable. No assertions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { redactText, redactValue } from '../src/main/core/lib/redact';
import { emit, header, ms, ratio, REPO_ROOT, sample, stats, table } from './lib/harness';

const BENCH = 'redact';
const SHARED = process.env.COWORKENV_SHARED ?? path.resolve(REPO_ROOT, '../shared');
const TAU = path.join(SHARED, 'corpora/trajectories/tau-bench/gpt-4o-airline.json');
const T028 = path.join(SHARED, 'corpora/claw-eval/tasks/T028_api_config_audit/fixtures/config/integrations.json');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

async function main(): Promise<void> {
  header('redaction of trajectories');
  if (!fs.existsSync(TAU) || !fs.existsSync(T028)) {
    const why = '../shared (τ-bench trajectories, Claw-Eval T028) is absent';
    console.log(`skipped: ${why}`);
    emit({ bench: BENCH, name: 'τ-bench trajectory', median_ms: NaN, ratio: null, baseline: '', skipped: why });
  } else {
    const trajectories = JSON.parse(fs.readFileSync(TAU, 'utf8')) as unknown[];
    const bytes = fs.statSync(TAU).size;
    const perTraj = async (fn: (t: unknown) => unknown) => {
      const all: number[] = [];
      for (let r = 0; r < RUNS; r++) all.push(...(await sample(() => trajectories.forEach(fn), 1, r === 0 ? 1 : 0)));
      return stats(all.map((t) => t / trajectories.length));
    };
    const redact = await perTraj((t) => redactValue(t));
    const base = await perTraj((t) => JSON.stringify(t));
    const mbps = (perTrajMs: number) => bytes / trajectories.length / 1e6 / (perTrajMs / 1000);
    const toolResult = JSON.stringify({ integrations: JSON.parse(fs.readFileSync(T028, 'utf8')) });
    const one = stats(await sample(() => redactText(toolResult), 2_000));
    const oneBase = stats(await sample(() => JSON.stringify(toolResult), 2_000));
    console.log(
      table(
        ['figure', 'median', 'p95', 'MB/s', 'vs baseline'],
        [
          [
            'τ-bench trajectory · redactValue',
            ms(redact.median),
            ms(redact.p95),
            mbps(redact.median).toFixed(1),
            ratio(redact.median / base.median),
          ],
          [
            'τ-bench trajectory · baseline JSON.stringify',
            ms(base.median),
            ms(base.p95),
            mbps(base.median).toFixed(1),
            '×1.00',
          ],
          [
            `T028 tool result (${toolResult.length} chars) · redactText`,
            ms(one.median),
            ms(one.p95),
            '',
            ratio(one.median / oneBase.median),
          ],
        ],
      ),
    );
    emit({
      bench: BENCH,
      name: 'τ-bench trajectory · redactValue',
      median_ms: redact.median,
      p95_ms: redact.p95,
      ratio: redact.median / base.median,
      baseline: 'JSON.stringify of the trajectory',
    });
    emit({
      bench: BENCH,
      name: 'T028 tool result · redactText',
      median_ms: one.median,
      p95_ms: one.p95,
      ratio: one.median / oneBase.median,
      baseline: 'JSON.stringify of the text',
    });
  }
}

void main();
