import { reportBack, request } from '../compose';
import type { Family } from './family';
import { workflow } from './workflow';

/**
 * Temporal dependency: every record is told from its lookalike only by time relative to the
 * reference date — an SLA running out within 24 hours, the to-do due tomorrow, last month's
 * expenses, last Thursday's notes, "the first meeting after the release", a job silent for 48 hours.
 */
export const temporal: Family = {
  scenario: 'temporal',
  services: { min: 1, max: 5 },
  describe: 'records told apart by deadlines, SLA windows and relative dates ("the meeting after the release")',
  compose({ g, w, kits }) {
    const segments = workflow(g, w, kits, { pick: 'time', subject: w.customer.short, who: w.customer.contact.name });
    const today = g.L(`Today is ${g.weekday(0)}, ${g.ref}.`, `今天是 ${g.ref}（${g.weekday(0)}）。`);
    const opening = g.pick([
      g.L(
        `${today} Time-sensitive work on ${w.customer.name}'s ${w.topic.issue.en}.`,
        `${today}${w.customer.name}的${w.topic.issue.zh}问题有几件事要按时间处理。`,
      ),
      g.L(
        `${today} A few deadlines around ${w.topic.issue.en} at ${w.customer.name} are coming up.`,
        `${today}${w.customer.name}的${w.topic.issue.zh}相关事项快到期了。`,
      ),
    ]);
    return {
      segments,
      prompt: request(
        g,
        opening,
        segments.map((s) => s.ask),
        [reportBack(g)],
      ),
      answer: {},
      taskName: g.L(
        `${w.customer.short}: time-sensitive ${w.topic.issue.en}`,
        `${w.customer.short}：${w.topic.issue.zh}的时效事项`,
      ),
    };
  },
};
