import type { Gen } from './gen-context';

/**
 * The request around the segments' clauses: an opening, the asks (a numbered list from three on,
 * as people write longer requests), and closing sentences. Chinese uses full-width punctuation.
 */
export function request(g: Gen, opening: string, asks: string[], closing: string[] = []): string {
  const cap = (s: string) => (g.lang === 'en' ? s.charAt(0).toUpperCase() + s.slice(1) : s);
  let body: string;
  if (asks.length >= 3)
    body = g.L(
      `${opening} Please:\n${asks.map((a, i) => `${i + 1}. ${cap(a)}.`).join('\n')}`,
      `${opening}请帮我：\n${asks.map((a, i) => `${i + 1}. ${a}。`).join('\n')}`,
    );
  else if (asks.length === 2)
    body = g.L(`${opening} Please ${asks[0]}, then ${asks[1]}.`, `${opening}请${asks[0]}，然后${asks[1]}。`);
  else body = g.L(`${opening} Please ${asks[0]}.`, `${opening}请${asks[0]}。`);
  const tail = closing.filter(Boolean);
  return tail.length
    ? `${body}${g.L(asks.length >= 3 ? '\n' : ' ', asks.length >= 3 ? '\n' : '')}${tail.join(g.L(' ', ''))}`
    : body;
}

/** "When you are done, tell me …" — the answer the final_text check reads. */
export const reportBack = (g: Gen): string =>
  g.pick([
    g.L(
      'When you are done, tell me briefly what you found and changed, with the ids.',
      '完成后简要告诉我查到了什么、改了什么，附上相关编号。',
    ),
    g.L(
      'Finish with a short summary that names the records you touched.',
      '最后给我一个简短总结，写明涉及的记录编号。',
    ),
    g.L('Reply with a summary including the relevant ids.', '请在回复里总结处理结果，并列出相关编号。'),
  ]);
