import { reportBack, request } from '../compose';
import type { Family } from './family';

/**
 * Single-service basics: one service, one case — triage/update/draft (act on the right record,
 * leave its lookalike alone) or a lookup (find the record and report it).
 */
export const singleService: Family = {
  scenario: 'single_service',
  services: { min: 1, max: 1 },
  describe:
    'one service: find the record the request describes and act on it (or report it); a lookalike stays untouched',
  compose({ g, w, kits }) {
    const kit = kits[0]!;
    const lookup = g.chance(0.25);
    const seg = kit.build({
      g,
      w,
      pick: 'link',
      role: lookup ? { mode: 'evidence' } : { mode: 'act' },
      subject: w.customer.short,
      who: w.customer.contact.name,
    });
    const c = w.customer;
    const opening = g.pick([
      g.L(
        `${c.name} (contact: ${c.contact.name}) has been dealing with ${w.topic.issue.en}.`,
        `${c.name}（联系人：${c.contact.name}）最近遇到了${w.topic.issue.zh}的问题。`,
      ),
      g.L(`I'm following up on ${c.name}'s ${w.topic.issue.en}.`, `我在跟进${c.name}的${w.topic.issue.zh}问题。`),
      g.L(
        `Quick one about ${c.name}, whose contact is ${c.contact.name}.`,
        `有件关于${c.name}的事，对方联系人是${c.contact.name}。`,
      ),
    ]);
    return {
      segments: [seg],
      prompt: request(g, opening, [seg.ask], [reportBack(g)]),
      answer: {},
      taskName: g.L(
        `${kit.service}: ${c.short} — ${w.topic.issue.en}`,
        `${kit.service}：${c.short}的${w.topic.issue.zh}`,
      ),
    };
  },
};
