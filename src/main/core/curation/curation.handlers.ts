import type { MutationContext } from '../context';
import { pagedIds, pagedValues } from '../db/paged-list';
import { prepareCached } from '../db/sqlite';
import type { HandlerMap } from '../lib/handler-types';
import { notFound } from '../lib/errors';
import { applyBatch, osUser, previewBatch, type Target, undoRedo } from './batches';
import { CURATION_TABLE, curationRepo } from './curation.repo';
import { previewRule } from './rule-preview';
import { DEFAULT_RULE, readRules, ruleOf } from './rules';
import { recomputeStats } from './stats';

/** What a bulk action changed, announced to open grids (the trajectories grid shows bucket and override). */
function touchFor(ctx: MutationContext, target: Target) {
  ctx.touch('curation_batches');
  ctx.touch(target === 'override' ? 'trajectories' : 'curation_tasks');
  if (target === 'bucket') ctx.touch('trajectories');
}

export const curationHandlers = {
  'curation.tasks': (input, ctx) => curationRepo(ctx.db).tasks(input),
  'curation.values': (input, ctx) => pagedValues(ctx.db, CURATION_TABLE, input.field, input),
  'curation.ids': (input, ctx) => pagedIds<string>(ctx.db, CURATION_TABLE, input),
  'curation.rules': (_input, ctx) => [...readRules(ctx.db).values()],
  'curation.setRule': (input, ctx) => {
    const { reason, pool, ...edit } = input;
    const before = ruleOf(readRules(ctx.db), pool);
    const now = ctx.now();
    const next = { ...DEFAULT_RULE, ...before, ...edit, pool, updatedAt: now };
    prepareCached(
      ctx.db,
      `INSERT INTO curation_rules
         (pool, unsolvable_below, trivial_min, trivial_all_pass, min_attempts, pass_k, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pool) DO UPDATE SET unsolvable_below = excluded.unsolvable_below,
       trivial_min = excluded.trivial_min, trivial_all_pass = excluded.trivial_all_pass,
       min_attempts = excluded.min_attempts, pass_k = excluded.pass_k, updated_at = excluded.updated_at`,
    ).run(pool, next.unsolvableBelow, next.trivialMin, next.trivialAllPass ? 1 : 0, next.minAttempts, next.passK, now);
    const batchId = Number(
      prepareCached(
        ctx.db,
        `INSERT INTO curation_batches (kind, target, value, who, at, reason, selection, changed)
         VALUES ('rules', 'rules', ?, ?, ?, ?, ?, 1)`,
      ).run(pool, osUser(), now, reason, JSON.stringify({ pool })).lastInsertRowid,
    );
    const strip = ({ updatedAt: _u, ...r }: typeof next) => JSON.stringify(r);
    prepareCached(ctx.db, 'INSERT INTO curation_changes (batch_id, item, before, after) VALUES (?, ?, ?, ?)').run(
      batchId,
      pool,
      strip({ ...before, updatedAt: '' }),
      strip(next),
    );
    // The pool's tasks get new suggestions (and Pass@k with a new k) before this commits (settle.ts).
    prepareCached(
      ctx.db,
      'INSERT OR IGNORE INTO curation_dirty (task_id) SELECT task_id FROM curation_tasks WHERE pool = ?',
    ).run(pool);
    ctx.touch('curation_batches');
    return { rule: ruleOf(readRules(ctx.db), pool), batchId };
  },
  'curation.previewRule': (input, ctx) => previewRule(ctx.db, input),
  'curation.recompute': (_input, ctx) => {
    const tasks = recomputeStats(ctx.db, 'all', ctx.now());
    ctx.touch('curation_tasks');
    return { tasks };
  },
  'curation.assign': (input, ctx) => {
    touchFor(ctx, 'bucket');
    return applyBatch(ctx.db, { kind: 'assign', target: 'bucket', value: input.bucket, ...input, now: ctx.now() });
  },
  'curation.applySuggestions': (input, ctx) => {
    touchFor(ctx, 'bucket');
    return applyBatch(ctx.db, { kind: 'suggest', target: 'bucket', value: null, ...input, now: ctx.now() });
  },
  'curation.preview': (input, ctx) =>
    previewBatch(ctx.db, {
      kind: input.action,
      target: input.action === 'pool' ? 'pool' : 'bucket',
      value: input.action === 'suggest' ? null : input.value,
      select: input.select,
      replaceAssigned: input.replaceAssigned,
    }),
  'curation.setPool': (input, ctx) => {
    touchFor(ctx, 'pool');
    return applyBatch(ctx.db, { kind: 'pool', target: 'pool', value: input.pool, ...input, now: ctx.now() });
  },
  'curation.override': (input, ctx) => {
    touchFor(ctx, 'override');
    return applyBatch(ctx.db, {
      kind: 'override',
      target: 'override',
      value: input.override,
      ...input,
      now: ctx.now(),
    });
  },
  'curation.undo': (input, ctx) => {
    const r = undoRedo(ctx.db, true, input.batchId, input.reason, ctx.now());
    for (const t of ['curation_batches', 'curation_tasks', 'trajectories']) ctx.touch(t);
    return r;
  },
  'curation.redo': (input, ctx) => {
    const r = undoRedo(ctx.db, false, input.batchId, input.reason, ctx.now());
    for (const t of ['curation_batches', 'curation_tasks', 'trajectories']) ctx.touch(t);
    return r;
  },
  'curation.log': (input, ctx) => curationRepo(ctx.db).log(input),
  'curation.batch': (input, ctx) => {
    const repo = curationRepo(ctx.db);
    const batch = repo.batch(input.id);
    if (!batch) throw notFound(`curation batch ${input.id}`);
    return { batch, ...repo.changes(input.id, input.offset, input.limit) };
  },
  'curation.charts': (input, ctx) => curationRepo(ctx.db).charts(input),
} satisfies Partial<HandlerMap>;
