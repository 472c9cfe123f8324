import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { createModelClient, type ModelClient } from '../agents/model-client';
import type { Judge, JudgeVerdict } from '../grading/judge/judge-check';
import type { Gradable, RunRecord } from '../grading/grade';
import { judgePass } from '../grading/judge/judge-pass';
import { withFreshVerdicts } from '../grading/judge/judge-cache';
import { judgeKey } from '../grading/judge/judge-prompt';

/** The env server's judge (`env serve --judge-url … --judge-model …`, key from COWORKENV_JUDGE_API_KEY). */
export type EnvJudgeOptions = {
  baseUrl: string;
  model: string;
  /** Held in memory only: never logged, never answered. */
  apiKey: string | null;
  timeoutMs?: number;
  /** Attempts per request, the first included (429/5xx/transport errors and timeouts). */
  maxAttempts?: number;
};

/** What a judged grade answers besides the grade: who judged, how many requests were asked or cached, failures. */
export type EnvJudgeSummary = { model: string; asked: number; cached: number; failed: string[] };

/**
 * Verdicts kept by the server, at most this many (oldest dropped first): a GRPO group repeats a task's rollouts,
 * and identical episodes (same prompt, calls and answer) are then judged once.
 */
const MAX_CACHED = 50_000;

/**
 * An LLM judge for the env server's grades: the app's judge prompt, parser and retry policy, with an in-memory
 * cache by content hash (the server has no workspace). A request the judge cannot answer leaves its check pending.
 */
export class EnvJudge {
  private readonly cache = new Map<string, JudgeVerdict>();
  private readonly client: ModelClient;

  constructor(readonly o: EnvJudgeOptions) {
    this.client = createModelClient(
      { name: 'judge', baseUrl: o.baseUrl, model: o.model, apiKey: o.apiKey, timeoutMs: o.timeoutMs ?? 120_000 },
      { retry: { maxAttempts: o.maxAttempts ?? 4, retryTimeouts: true } },
    );
  }

  /**
   * Asks about the run's llm_judge checks and judged safety rules not cached yet; answers the judge grade() reads
   * and a summary.
   */
  async judgeFor(spec: Gradable & Pick<TaskSpec, 'checks'>, run: RunRecord) {
    const model = this.o.model;
    const pass = await judgePass([{ task: spec, run }], this.client, model, (k) => this.cache.has(k));
    const cached: Judge = { model, verdict: (req) => this.cache.get(judgeKey(model, req)) ?? null };
    const { judge, verdicts } = withFreshVerdicts(cached, model, pass);
    for (const v of verdicts) if (v.score !== null) this.remember(v);
    const summary: EnvJudgeSummary = {
      model,
      asked: pass.asked,
      cached: pass.cached,
      failed: pass.failed.map((f) => f.problem),
    };
    return { judge, summary };
  }

  private remember(v: JudgeVerdict) {
    this.cache.set(v.key, v);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
  }
}
