import { reportBack, request } from '../compose';
import type { Family } from './family';
import { caseOpening, workflow } from './workflow';

/**
 * Cross-service workflow with distractors (the paper's M1100): one customer's case spread over
 * 2–5 services — read the CRM record, the ticket, the procedure…, act where asked, and carry the
 * ids found in one service into the write of another. Every segment has a lookalike of the rival
 * customer that a prohibited rule proves untouched.
 */
export const crossService: Family = {
  scenario: 'cross_service',
  services: { min: 2, max: 5 },
  describe: 'one customer case across 2–5 services: read, act, carry ids between services; lookalikes stay untouched',
  compose({ g, w, kits }) {
    const segments = workflow(g, w, kits, { pick: 'link', subject: w.customer.short, who: w.customer.contact.name });
    return {
      segments,
      prompt: request(
        g,
        caseOpening(g, w),
        segments.map((s) => s.ask),
        [reportBack(g)],
      ),
      answer: {},
      taskName: g.L(
        `${w.customer.short}: ${w.topic.issue.en} across ${segments.length} services`,
        `${w.customer.short}：跨 ${segments.length} 个服务处理${w.topic.issue.zh}`,
      ),
    };
  },
};
