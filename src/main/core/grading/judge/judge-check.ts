import type { CheckResult, Evidence, LlmJudgeCheck } from '../../../../shared/contract/entities/checks';
import { judgeRequest, type JudgeRequest } from './judge-prompt';

/** A judge's answer to one request (judge-cache.ts): its parsed score, or null with the problem. */
export type JudgeVerdict = {
  model: string;
  /** judgeKey(model, request): where the answer is cached. */
  key: string;
  answer: string;
  score: number | null;
  reasoning: string;
  /** The endpoint gave no answer (after the client's retries): why. Such a verdict is never cached. */
  error?: string;
};

/**
 * What grade() asks about an llm_judge check: the verdict already obtained for this exact request, or null when
 * there is none yet (the pre-pass, judge-pass.ts, asks the endpoint; grade() itself never waits on a network).
 */
export type Judge = { model: string; verdict(req: JudgeRequest): JudgeVerdict | null };

/** A judge that gives every check the same score (the stub both sides share when comparing with upstream). */
export const constantJudge = (score: number): Judge => ({
  model: 'stub',
  verdict: () => ({ model: 'stub', key: 'stub', answer: String(score), score, reasoning: `stub judge: ${score}` }),
});

/** The inputs of Claw-Eval's `evaluate` for a run: task prompt, conversation, action summary. */
export type JudgeInputs = { taskPrompt: string; conversation: string; actions: string };

/** The judge's inputs for a task and a run (grade() and the pre-pass build the very same requests). */
export const judgeInputsOf = (
  task: { prompt?: { text: string } },
  run: { conversation?: string; actionsSummary?: string },
): JudgeInputs => ({
  taskPrompt: task.prompt?.text ?? '',
  conversation: run.conversation ?? '',
  actions: run.actionsSummary ?? 'No audit data available.',
});

export const requestFor = (c: { rubric: string }, inputs: JudgeInputs): JudgeRequest =>
  judgeRequest(inputs.taskPrompt, inputs.conversation, inputs.actions, c.rubric);

type Graded = Omit<CheckResult, 'id' | 'kind' | 'weight'>;

/**
 * An llm_judge check: the judge's clamped score with its prompt, answer and reasoning as evidence; without a
 * verdict, "judge pending" (score null: excluded, never 0 — issue 19 item 2).
 */
export function gradeJudgeCheck(c: LlmJudgeCheck, inputs: JudgeInputs, judge: Judge | undefined): Graded {
  if (!judge)
    return {
      status: 'not_graded',
      score: null,
      message: 'judge pending: no judge endpoint is configured',
      evidence: [{ kind: 'none', reason: 'judge not run' }],
    };
  const req = requestFor(c, inputs);
  const v = judge.verdict(req);
  if (!v)
    return {
      status: 'not_graded',
      score: null,
      message: `judge pending: not judged by ${judge.model} yet`,
      evidence: [{ kind: 'none', reason: 'judge not run' }],
    };
  if (v.error !== undefined)
    return {
      status: 'not_graded',
      score: null,
      message: `judge pending: ${v.model} did not answer (${v.error})`,
      evidence: [{ kind: 'none', reason: `judge failed: ${v.error}` }],
    };
  const evidence: Evidence = {
    kind: 'judge',
    model: v.model,
    key: v.key,
    prompt: req.user,
    answer: v.answer,
    score: v.score,
    reasoning: v.reasoning,
  };
  if (v.score === null)
    return {
      status: 'not_graded',
      score: null,
      message: `judge pending: ${v.model} answered without a usable score (${v.reasoning})`,
      evidence: [evidence],
    };
  return {
    status: v.score >= 1 ? 'met' : v.score > 0 ? 'partial' : 'failed',
    score: v.score,
    message: `judge ${v.model} scored ${v.score}`,
    evidence: [evidence],
  };
}
