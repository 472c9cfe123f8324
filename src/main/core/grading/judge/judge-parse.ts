/**
 * A judge's answer → score and reasoning, the way Claw-Eval's LLMJudge parses it (llm_judge.py at 9365e1a): strip
 * a leading and a trailing Markdown code fence, take the first flat `{…}` (no nested braces), parse it as JSON and
 * read `score` and `reasoning`; when that fails, fall back to the `"score": <number>` and `"reasoning": "<…>"`
 * patterns; clamp the score to [0, 1]. No score found: null (upstream retries; we leave the check pending and keep
 * the answer as evidence). Model output is data: parsed, never evaluated.
 */
export type ParsedJudgeAnswer = { score: number; reasoning: string } | { score: null; problem: string };

export function parseJudgeAnswer(answer: string | null): ParsedJudgeAnswer {
  let raw = (answer ?? '') || '{}';
  raw = raw.trim().replace(/^```(?:json)?\s*/, '');
  raw = raw.trim().replace(/\s*```$/, '');
  const flat = /\{[^{}]*\}/.exec(raw);
  if (flat) raw = flat[0];
  const parsed = fromJson(raw) ?? fromPatterns(raw);
  if (!parsed) return { score: null, problem: 'no score in the answer' };
  if (!Number.isFinite(parsed.score)) return { score: null, problem: `the score is not a number: ${parsed.score}` };
  return { score: Math.max(0, Math.min(1, parsed.score)), reasoning: parsed.reasoning };
}

function fromJson(raw: string): { score: number; reasoning: string } | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  // Upstream reads both keys (a KeyError falls back to the patterns) and converts the score with float().
  if (typeof v !== 'object' || v === null || !('score' in v) || !('reasoning' in v)) return null;
  const o = v as { score: unknown; reasoning: unknown };
  const score = typeof o.score === 'number' ? o.score : typeof o.score === 'string' ? Number(o.score) : Number.NaN;
  return { score, reasoning: typeof o.reasoning === 'string' ? o.reasoning : JSON.stringify(o.reasoning) };
}

function fromPatterns(raw: string): { score: number; reasoning: string } | null {
  const s = /"score"\s*:\s*([0-9.]+)/.exec(raw);
  if (!s) return null;
  const r = /"reasoning"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw);
  return { score: Number(s[1]), reasoning: r?.[1] ?? '' };
}
