import { request } from '../compose';
import type { Family } from './family';
import { workflow } from './workflow';

/**
 * Multi-turn clarification: the request names the customer's contact by given name only — the
 * lookalike rival's contact shares it — and leaves one value of the first write open. The
 * simulated user (user_agent) holds both facts; the checks need them (the right customer's
 * records, the value only the user knows).
 */
export const multiTurn: Family = {
  scenario: 'multi_turn',
  services: { min: 1, max: 5 },
  describe: 'the request omits which customer and one value; the simulated user holds them and the checks need them',
  compose({ g, w, kits }) {
    const c = w.customer.contact;
    const subject = g.L('the customer', '该客户');
    const segments = workflow(g, w, kits, { pick: 'link', subject, who: c.first, hiddenParam: true });
    const opening = g.pick([
      g.L(
        `${c.first} has been chasing us about ${w.topic.issue.en} again.`,
        `${c.first}又来催${w.topic.issue.zh}的事了。`,
      ),
      g.L(
        `Can you sort out ${c.first}'s ${w.topic.issue.en} problem?`,
        `${c.first}那边${w.topic.issue.zh}的问题，你帮忙处理一下。`,
      ),
    ]);
    const hidden = [
      g.L(
        `The customer is ${w.customer.name}; the contact is ${c.name} (${c.email}), not ${w.rival.contact.name} ` +
          `from ${w.rival.name}.`,
        `客户是${w.customer.name}，联系人是${c.name}（${c.email}），不是${w.rival.name}的${w.rival.contact.name}。`,
      ),
      ...segments.flatMap((s) => s.hidden),
    ];
    const u = w.user;
    return {
      segments,
      prompt: request(
        g,
        opening,
        segments.map((s) => s.ask),
        [g.L('Ask me if anything is unclear.', '有不清楚的地方直接问我。')],
      ),
      answer: {
        before: [
          g.L(
            `(Clarified with you: ${w.customer.name}, ${c.name}.)`,
            `（已与你确认：${w.customer.name}，${c.name}。）`,
          ),
        ],
      },
      taskName: g.L(
        `Clarify and handle ${c.first}'s ${w.topic.issue.en}`,
        `确认并处理${c.first}的${w.topic.issue.zh}问题`,
      ),
      userAgent: {
        persona: g.L(
          `You are ${u.name}, ${u.title} at ${w.us.name}. You asked the assistant to handle ${c.first}'s ` +
            `${w.topic.issue.en}. You answer questions briefly and only reveal a fact when the assistant asks ` +
            `about it. Facts you know: ${hidden.join(' ')}`,
          `你是${w.us.name}的${u.title}${u.name}。你请助手处理${c.first}的${w.topic.issue.zh}问题。回答要简短，助手问到时才透露相关信息。你掌握的信息：` +
            `${hidden.join('')}`,
        ),
        hidden_facts: hidden,
        max_rounds: Math.min(8, 2 + segments.length),
        system_prompt_suffix: g.L(
          'The user may not give all the information up front. Ask for missing key details before acting.',
          '用户可能不会一次性提供全部信息。缺少关键信息时，先向用户询问，再执行操作。',
        ),
      },
    };
  },
};
