import type { Gen } from '../gen-context';
import type { Kit } from '../kits/kit';
import type { Fact, Pick, Segment } from '../segment';
import type { World } from '../world';

export type WorkflowOptions = {
  pick: Pick;
  subject: string;
  who: string;
  /** The first acting segment gets a parameter only the simulated user knows (multi-turn). */
  hiddenParam?: boolean;
};

/**
 * How many segments write: easy 1, medium up to 2, hard up to 3, leaving at least one reader when there are several
 * services.
 */
const actsFor = (g: Gen, n: number) => Math.max(1, Math.min(n === 1 ? 1 : n - 1, [0, 1, 2, 3][g.depth]!));

/**
 * Which services write first: the ones whose writes are everyday work (a ticket update, a draft, a
 * meeting); exporting CRM data or submitting money comes last (M1100: the CRM is read, its export
 * prohibited). A little seeded jitter keeps the choice varied.
 */
const WRITE_RANK: Record<string, number> = {
  helpdesk: 0,
  gmail: 0,
  calendar: 1,
  todo: 1,
  contacts: 1,
  notes: 2,
  config: 2,
  scheduler: 2,
  inventory: 3,
  kb: 3,
  rss: 3,
  finance: 5,
  crm: 6,
};

/**
 * A multi-service workflow around one case: readers first, then the writers; when a writer can
 * carry text (a draft, a message, a bulletin…) it goes last and must mention what the others
 * found (ticket, article, mail ids) — the cross-service dependency the checks verify.
 */
export function workflow(g: Gen, w: World, kits: Kit[], o: WorkflowOptions): Segment[] {
  const acts = actsFor(g, kits.length);
  // Messengers are preferred as the last writer; the other writers follow the (seeded) slot order.
  const messenger = kits.find((k) => k.messenger);
  const writers = new Set<Kit>(messenger ? [messenger] : []);
  const ranked = kits.map((k) => ({ k, r: WRITE_RANK[k.service]! + g.int(0, 3) })).sort((a, b) => a.r - b.r);
  for (const { k } of ranked) if (writers.size < acts) writers.add(k);
  const readers = kits.filter((k) => !writers.has(k));
  const ordered = [...readers, ...kits.filter((k) => writers.has(k) && k !== messenger)];
  const base = { g, w, pick: o.pick, subject: o.subject, who: o.who };
  let hidden = o.hiddenParam === true;
  const segments: Segment[] = ordered.map((k) => {
    const role = writers.has(k) ? { mode: 'act' as const, hiddenParam: hidden } : { mode: 'evidence' as const };
    if (writers.has(k)) hidden = false;
    return k.build({ ...base, role });
  });
  if (messenger && writers.has(messenger)) {
    const facts: Fact[] = segments.flatMap((s) => s.facts).slice(0, g.depth >= 2 ? 2 : 1);
    segments.push(messenger.build({ ...base, role: { mode: 'act', mention: facts, hiddenParam: hidden } }));
  }
  return segments;
}

/** "Acme Corp (contact: Ana Diaz) is at risk over SSO login failures." — varied openings of a case. */
export function caseOpening(g: Gen, w: World): string {
  const c = w.customer;
  const issue = w.topic.issue;
  return g.pick([
    g.L(
      `${c.name} (contact: ${c.contact.name}) is at risk of churning over ${issue.en}.`,
      `${c.name}（联系人：${c.contact.name}）因${issue.zh}问题有流失风险。`,
    ),
    g.L(
      `${c.contact.name} from ${c.name} escalated ${issue.en} to us this morning.`,
      `${c.name}的${c.contact.name}今天上午把${issue.zh}问题升级到了我们这里。`,
    ),
    g.L(
      `We need to get ahead of ${issue.en} at ${c.name} before it becomes a renewal problem.`,
      `${c.name}的${issue.zh}问题得尽快处理，免得影响续约。`,
    ),
    g.L(
      `${c.name}'s ${issue.en} are hurting the account; ${c.contact.name} is waiting for news.`,
      `${c.name}的${issue.zh}问题已经影响到合作，${c.contact.name}在等我们的答复。`,
    ),
  ]);
}
