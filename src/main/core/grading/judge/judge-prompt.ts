import { createHash } from 'node:crypto';

/**
 * The judge's prompt, as Claw-Eval's `LLMJudge.evaluate` builds it (claw-eval/claw-eval
 * src/claw_eval/graders/llm_judge.py at 9365e1a96ec084a5c8820cdf438e7fb4e1a83b90, MIT licence): the same system
 * text and the same four user sections, so a judge model scores our llm_judge checks as it scores upstream's.
 * The system text is upstream's string, kept byte for byte (changing one character changes every score's cache key
 * and can change the scores): data, not code.
 */
export const JUDGE_SYSTEM_PROMPT =
  'You are an evaluation judge for an AI assistant.\n' +
  'You will be given a task prompt, a conversation, a summary of actions taken, and a rubric.\n' +
  "Follow the rubric to score the assistant's response on a 0.0-1.0 scale.\n" +
  'Respond with JSON only: {"score": <float>, "reasoning": "<brief explanation>"}\n';

/** Upstream's request settings: temperature 0, max_tokens 8192. */
export const JUDGE_TEMPERATURE = 0;
export const JUDGE_MAX_TOKENS = 8192;

/** What one llm_judge check asks a judge: the system and user texts, and the rubric it came from. */
export type JudgeRequest = { system: string; user: string; rubric: string };

/** The sections of `evaluate`: `## Task Prompt`, `## Conversation`, `## Actions Taken`, `## Rubric`. */
export function judgeRequest(taskPrompt: string, conversation: string, actions: string, rubric: string): JudgeRequest {
  const user =
    `## Task Prompt\n${taskPrompt}\n\n` +
    `## Conversation\n${conversation}\n\n` +
    `## Actions Taken\n${actions}\n\n` +
    `## Rubric\n${rubric}`;
  return { system: JUDGE_SYSTEM_PROMPT, user, rubric };
}

/**
 * The cache key: sha256 over the judge model and the exact texts sent. The same model shown the same prompt is not
 * asked again (temperature 0: upstream treats its answer as the score), so a re-grade with unchanged checks costs no
 * call; a changed rubric, trajectory or model is a new key.
 */
export const judgeKey = (model: string, r: Pick<JudgeRequest, 'system' | 'user'>): string =>
  createHash('sha256')
    .update(JSON.stringify([model, JUDGE_TEMPERATURE, r.system, r.user]))
    .digest('hex');
