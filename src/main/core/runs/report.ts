import type { RunReport, TaskReport } from '../../../shared/contract/entities/run';
import { prepareCached, type ReadDb } from '../db/sqlite';
import { notFound } from '../lib/errors';
import { histogram, leaderboard, overall, PASS_THRESHOLD, taskMetrics, type Trial } from './metrics';
import { scoreOfRecordSql } from '../trajectories/score-basis';
import { PASS_RULES, type PassRuleId, passOf, ruleOf } from './pass-rule';

type Row = {
  task_id: string;
  trial: number;
  valid: number;
  graded: number;
  score: number | null;
  completion: number | null;
  safety: number | null;
  source_reward: number | null;
  passed: number | null;
  source_success: number | null;
  source_format: string | null;
  name: string | null;
  split: string | null;
  category: string | null;
  /** 1: the row counts with the app's grade (its collection's score basis, score-basis.ts); 0: with its record. */
  use_app: number;
  pending: number;
};

const RECORD = scoreOfRecordSql('t');
const SELECT = `SELECT t.task_id, t.trial, t.valid, t.graded, t.score, t.completion, t.safety, t.source_reward,
    t.passed, t.source_success, t.source_format, k.name, k.split, k.category,
    ${RECORD.useApp} AS use_app, ${RECORD.pending} AS pending
  FROM trajectories t LEFT JOIN tasks k ON k.task_id = t.task_id`;

/**
 * The evaluation report of a run or a collection (reference/claw-eval.md §9.3–§9.4, formats.md §5).
 * A trial's score is its score of record as its collection's basis chooses (score-basis.ts): the shared grader's,
 * or the source's own reward (the report says how many); a trial that errored or has neither counts as missing,
 * and one whose score waits for an LLM judge is left out and counted apart (judge_pending). Each trial passes under
 * its source's rule (pass-rule.ts), which the report names; k beyond a task's trials is padded with
 * failures under Claw-Eval's rule and refused under τ's.
 */
export function runReport(
  db: ReadDb,
  q: { runId?: number | undefined; collection?: string | undefined; k?: number | undefined; bins: number },
): RunReport {
  let rows: Row[];
  let label: string;
  let k = q.k;
  if (q.runId !== undefined) {
    const run = prepareCached(db, 'SELECT agent_label, trials, collection FROM runs WHERE id = ?').get(q.runId) as
      | { agent_label: string; trials: number; collection: string | null }
      | undefined;
    if (!run) throw notFound(`run ${q.runId}`);
    rows = prepareCached(db, `${SELECT} WHERE t.run_id = ? ORDER BY t.task_id, t.trial, t.id`).all(q.runId) as Row[];
    label = `run ${q.runId}: ${run.agent_label}${run.collection ? ` → ${run.collection}` : ''}`;
    k ??= run.trials;
  } else {
    if (!prepareCached(db, 'SELECT 1 FROM collections WHERE name = ?').get(q.collection))
      throw notFound(`collection ${q.collection}`);
    rows = prepareCached(db, `${SELECT} WHERE t.collection = ? ORDER BY t.task_id, t.trial, t.id`).all(
      q.collection,
    ) as Row[];
    label = `collection ${q.collection}`;
  }

  const byTask = new Map<string, { meta: Row; trials: Trial[]; rule: PassRuleId }>();
  const basis = { graded: 0, source_reward: 0, none: 0, judge_pending: 0 };
  const rules = new Map<string, RunReport['rules'][number]>();
  for (const r of rows) {
    if (r.pending) {
      basis.judge_pending++;
      continue;
    }
    const graded = r.use_app === 1 && r.valid === 1 && r.graded === 1 && r.score !== null;
    const reward = !graded && r.valid === 1 && r.source_reward !== null;
    basis[graded ? 'graded' : reward ? 'source_reward' : 'none']++;
    const rule = ruleOf(r.source_format, graded);
    const score = graded ? r.score! : reward ? r.source_reward! : 0;
    const trial: Trial = {
      trial: r.trial,
      score,
      completion: graded ? r.completion : null,
      safety: graded ? r.safety : null,
      errored: !graded && !reward,
      passed: (graded || reward) && passOf(rule, score, graded ? r.passed : r.source_success),
    };
    const t = byTask.get(r.task_id) ?? { meta: r, trials: [], rule };
    t.trials.push(trial);
    // A task with any τ trial follows τ's rule beyond its trials: refusing is the stricter of the two.
    if (rule === 'reward-is-1') t.rule = rule;
    byTask.set(r.task_id, t);
    if (!graded && !reward) continue;
    const source = graded ? 'graded' : (r.source_format ?? 'unknown');
    const named = rules.get(`${source}\0${rule}`) ?? { source, rule, ...PASS_RULES[rule], trials: 0 };
    named.trials++;
    rules.set(`${source}\0${rule}`, named);
  }
  k ??= Math.max(1, ...[...byTask.values()].map((t) => t.trials.length));

  const tasks: TaskReport[] = [...byTask.entries()].map(([id, { meta, trials, rule }]) => {
    const m = taskMetrics(id, trials, k, PASS_RULES[rule].beyond_trials);
    return {
      ...m,
      rule,
      task_name: meta.name,
      split: meta.split ?? 'external',
      category: meta.category || '(none)',
      scores: trials.filter((t) => !t.errored).map((t) => t.score),
    };
  });
  const lb = (ids: Set<string>) =>
    leaderboard(
      [...byTask.entries()].filter(([id, t]) => ids.has(id) && t.rule === 'score-0.75').map(([, t]) => t),
      k,
    );
  const group = (by: 'split' | 'category') => {
    const values = [...new Set(tasks.map((t) => t[by]))].sort();
    return values.map((value) => {
      const members = tasks.filter((t) => t[by] === value);
      return { by, value, ...overall(members), leaderboard: lb(new Set(members.map((t) => t.task_id))) };
    });
  };
  return {
    scope: { runId: q.runId ?? null, collection: q.collection ?? null, label },
    k,
    threshold: PASS_THRESHOLD,
    rules: [...rules.values()].sort((a, b) => a.source.localeCompare(b.source)),
    basis,
    overall: { ...overall(tasks), leaderboard: lb(new Set(byTask.keys())) },
    groups: [...group('split'), ...group('category')],
    tasks,
    histograms: {
      trajectory_scores: histogram(
        tasks.flatMap((t) => t.scores),
        q.bins,
      ),
      task_mean_scores: histogram(
        tasks.flatMap((t) => (t.mean_score === null ? [] : [t.mean_score])),
        q.bins,
      ),
    },
  };
}
