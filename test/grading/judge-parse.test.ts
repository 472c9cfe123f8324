import { describe, expect, it } from 'vitest';
import { formatConversation, summarizeActions } from '../../src/main/core/grading/judge/judge-inputs';
import { parseJudgeAnswer } from '../../src/main/core/grading/judge/judge-parse';
import { judgeKey, judgeRequest } from '../../src/main/core/grading/judge/judge-prompt';

describe("the judge's answer is parsed as Claw-Eval's LLMJudge parses it", () => {
  it.each([
    ['{"score": 0.7, "reasoning": "ok"}', { score: 0.7, reasoning: 'ok' }],
    ['```json\n{"score": 1, "reasoning": "all"}\n```', { score: 1, reasoning: 'all' }],
    ['Sure. {"score": 1.4, "reasoning": "over"} done', { score: 1, reasoning: 'over' }],
    ['{"score": -2, "reasoning": "under"}', { score: 0, reasoning: 'under' }],
    ['{"score": "0.5", "reasoning": "string score"}', { score: 0.5, reasoning: 'string score' }],
    // Not JSON (a trailing comma), so the patterns are read.
    ['{"score": 0.25, "reasoning": "partly \\"right\\"",}', { score: 0.25, reasoning: 'partly \\"right\\"' }],
  ])('%s', (answer, want) => expect(parseJudgeAnswer(answer)).toEqual(want));

  it('no score: null with the problem (the check stays pending, never 0)', () => {
    expect(parseJudgeAnswer('I cannot judge this.')).toMatchObject({ score: null });
    expect(parseJudgeAnswer(null)).toMatchObject({ score: null });
    expect(parseJudgeAnswer('{"score": "high", "reasoning": "x"}')).toMatchObject({ score: null });
  });
});

describe("the judge's inputs use Claw-Eval's string formats", () => {
  it('format_conversation keeps user and assistant text only', () => {
    expect(
      formatConversation([
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'do it' },
        { role: 'assistant', content: null },
        { role: 'tool', content: '{"ok": true}' },
        { role: 'assistant', content: 'done' },
      ]),
    ).toBe('[USER]: do it\n[ASSISTANT]: done');
  });
  it('summarize_actions lists calls per service, with the empty cases', () => {
    expect(summarizeActions({})).toBe('No audit data available.');
    expect(summarizeActions({ gmail: { calls: [] } })).toBe('No actions recorded.');
    expect(summarizeActions({ gmail: { calls: [{ endpoint: '/gmail/messages' }, {}] }, todo: { calls: [] } })).toBe(
      'gmail: 2 calls — /gmail/messages, ?',
    );
  });
  it('the cache key changes with the model and with any prompt text', () => {
    const r = judgeRequest('p', 'c', 'a', 'rubric');
    expect(r.user).toBe('## Task Prompt\np\n\n## Conversation\nc\n\n## Actions Taken\na\n\n## Rubric\nrubric');
    expect(judgeKey('m', r)).toBe(judgeKey('m', { ...r }));
    expect(judgeKey('m2', r)).not.toBe(judgeKey('m', r));
    expect(judgeKey('m', judgeRequest('p', 'c', 'a', 'rubric!'))).not.toBe(judgeKey('m', r));
  });
});
