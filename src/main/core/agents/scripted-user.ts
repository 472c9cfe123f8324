import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Message } from '../../../shared/contract/entities/trajectory';
import { messageText, type UserSimulator } from './agent-types';

export const SCRIPTED_USER_LABEL = 'scripted user';

/**
 * A simulated user without a model, for offline runs and tests. Given the assistant's latest
 * message: a question that names hidden facts (shares a salient word with them: a name, an id, a
 * topic word — stop words aside) is answered with those facts, in the task's order; a question
 * that names none gets "I don't know"; anything that is not a question is taken as the final
 * answer: [DONE].
 */
const STOP = new Set(
  (
    'the and you your yours what which who whom whose when where why how should would could can will shall may might ' +
    'must please this that these those with for are is was were did does have has had any about from into there ' +
    'their them they me my mine our ours we need want tell let know just also like to of in on at by or if it its ' +
    'be been being do not no yes so than then too very an as up out all some more most other such only own same ' +
    'sure okay ok confirm clarify could question questions details detail information info something'
  ).split(' '),
);
const CJK_STOP = new Set([
  '请问',
  '是否',
  '需要',
  '可以',
  '一下',
  '我们',
  '你们',
  '什么',
  '哪个',
  '哪位',
  '还是',
  '确认',
]);

/** Salient words: Latin words of 3+ letters not in the stop list, lower-cased; CJK character bigrams. */
export function salientTokens(text: string): Set<string> {
  const out = new Set<string>();
  const low = text.toLowerCase();
  for (const m of low.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_@.'’-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu)) {
    const w = m[0];
    if (/\p{Script=Han}/u.test(w)) continue;
    if (w.length >= 3 && !STOP.has(w)) out.add(w);
  }
  for (const run of low.match(/\p{Script=Han}+/gu) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) {
      const bi = chars[i]! + chars[i + 1]!;
      if (!CJK_STOP.has(bi)) out.add(bi);
    }
  }
  return out;
}

const isQuestion = (text: string) => /[?？]/.test(text);

/** The reply to `assistantText` for a task with these hidden facts ('[DONE]' when it is not a question). */
export function scriptedAnswer(spec: Pick<TaskSpec, 'user_agent' | 'language'>, assistantText: string): string {
  if (!isQuestion(assistantText)) return '[DONE]';
  const asked = salientTokens(assistantText);
  const facts = spec.user_agent?.hidden_facts ?? [];
  const named = facts.filter((f) => [...salientTokens(f)].some((t) => asked.has(t)));
  if (!named.length) return spec.language === 'zh' ? '这个我不太清楚。' : "I don't know.";
  return named.join(spec.language === 'zh' ? '' : ' ');
}

export function scriptedUser(): UserSimulator {
  return {
    kind: 'scripted',
    label: SCRIPTED_USER_LABEL,
    reply({ spec, messages }) {
      let last: Message | undefined;
      for (let i = messages.length - 1; i >= 0 && !last; i--) if (messages[i]!.role === 'assistant') last = messages[i];
      const raw = scriptedAnswer(spec, last ? messageText(last) : '');
      return Promise.resolve({ text: raw.includes('[DONE]') ? null : raw, raw, usage: null, latencyMs: 0 });
    },
  };
}
