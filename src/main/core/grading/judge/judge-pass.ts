import type { ModelClient } from '../../agents/model-client';
import { ModelError } from '../../agents/model-error';
import type { Gradable, RunRecord } from '../grade';
import { judgeInputsOf, requestFor, type JudgeVerdict } from './judge-check';
import type { JudgeRequest } from './judge-prompt';
import { safetyRequestFor } from './safety-judge';
import { parseJudgeAnswer } from './judge-parse';
import { JUDGE_MAX_TOKENS, JUDGE_TEMPERATURE, judgeKey } from './judge-prompt';

export type JudgePassResult = {
  /** Every answer obtained (scored or not), for judge_cache and the report. */
  verdicts: JudgeVerdict[];
  /** Requests sent to the endpoint. */
  asked: number;
  /** Requests whose answer was already cached (or asked earlier in this pass). */
  cached: number;
  /** Requests that got no usable score (endpoint error, or an answer without a score): they stay pending. */
  failed: { key: string; problem: string }[];
};

/** Whether grading this task asks the judge at all: an llm_judge check or a judge-evaluated safety rule. */
export const needsJudge = (task: Pick<Gradable, 'checks' | 'prohibited'>): boolean =>
  task.checks.some((c) => c.kind === 'llm_judge') || task.prohibited.some((r) => r.kind === 'judge');

/** Every request grade() will look up for this run: llm_judge checks, then judge-evaluated safety rules. */
export function judgeRequestsOf(task: Gradable, run: RunRecord): JudgeRequest[] {
  const inputs = judgeInputsOf(task, run);
  return [
    ...task.checks.flatMap((c) => (c.kind === 'llm_judge' ? [requestFor(c, inputs)] : [])),
    ...task.prohibited.flatMap((r) => (r.kind === 'judge' ? [safetyRequestFor(r, inputs, run.dispatches)] : [])),
  ];
}

/**
 * The judge pre-pass (issue 19 item 2): asks the endpoint about every llm_judge check and judged safety rule of
 * these runs whose exact request is not cached, so that grade() — synchronous and pure — then finds each verdict in
 * the cache. Runs
 * outside any transaction (never await inside one): the caller stores `verdicts` afterwards. Requests go one at a
 * time, as upstream's grader does; the client retries 429/5xx itself. An endpoint error stops nothing else: the
 * check stays pending and the error is reported.
 */
export async function judgePass(
  items: Iterable<{ task: Gradable; run: RunRecord }>,
  client: ModelClient,
  model: string,
  isCached: (key: string) => boolean,
  signal?: AbortSignal,
): Promise<JudgePassResult> {
  const out: JudgePassResult = { verdicts: [], asked: 0, cached: 0, failed: [] };
  const seen = new Set<string>();
  for (const { task, run } of items) {
    for (const req of judgeRequestsOf(task, run)) {
      const key = judgeKey(model, req);
      if (seen.has(key) || isCached(key)) {
        out.cached++;
        continue;
      }
      seen.add(key);
      signal?.throwIfAborted();
      out.asked++;
      try {
        const res = await client.chat({
          messages: [
            { role: 'system', content: req.system },
            { role: 'user', content: req.user },
          ],
          temperature: JUDGE_TEMPERATURE,
          maxTokens: JUDGE_MAX_TOKENS,
          ...(signal ? { signal } : {}),
        });
        const answer = res.message.content ?? '';
        const p = parseJudgeAnswer(answer);
        if (p.score === null)
          out.failed.push({ key, problem: `${p.problem}: ${JSON.stringify(answer.slice(0, 200))}` });
        out.verdicts.push({
          model,
          key,
          answer,
          score: p.score,
          reasoning: p.score === null ? p.problem : p.reasoning,
        });
      } catch (err) {
        if (!(err instanceof ModelError) || err.kind === 'aborted') throw err;
        out.failed.push({ key, problem: err.message });
      }
    }
  }
  return out;
}
