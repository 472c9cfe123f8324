import type { z } from 'zod';
import { issuePath } from '../../../shared/contract/issue-path';
import { SlotFields, SlotInput, type Slot, type SlotField } from '../../../shared/contract/entities/slot';
import type { Issue } from '../../../shared/contract';
import demoPlan from '../../../../resources/seed/demo-plan.json';
import { SLOT_TABLE, slotsRepo, slotsWriter } from './slots.repo';
import { deleteWhere, pagedIds, pagedValues, restoreDeleted } from '../db/paged-list';
import { restoreSlotLinks } from './slot-links';
import { prepareCached, type ReadDb } from '../db/sqlite';
import { AppError, notFound } from '../lib/errors';
import type { HandlerMap } from '../lib/handler-types';
import { generateGridJob, slotAt } from './generate-grid.job';
import { undoGrid } from './grid-undo';
import { generationRepo } from '../generation/generation.repo';
import { exportCsvPage, importCsv } from './plan-csv';

const issuesOf = (err: z.ZodError, prefix: (string | number)[]): Issue[] =>
  err.issues.map((i) => ({
    path: [...prefix, ...issuePath(i.path)],
    message: i.message,
  }));

/** Validates every row before anything is written: one bad cell rejects the whole batch. */
function validateAll<T>(items: T[], check: (item: T, i: number) => Issue[]): void {
  const issues = items.flatMap(check);
  if (issues.length) {
    const first = issues[0]!;
    throw new AppError(
      'INVALID_INPUT',
      `${issues.length} invalid value${issues.length > 1 ? 's' : ''}; nothing was written (first: ` +
        `${first.path.join('.')}: ${first.message})`,
      issues.slice(0, 200),
    );
  }
}

function parseField(
  field: SlotField,
  value: unknown,
  path: (string | number)[],
): { ok: true; value: unknown } | { ok: false; issues: Issue[] } {
  const r = SlotFields[field].safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, issues: issuesOf(r.error, [...path, field]) };
}

const mustGet = (ctx: { db: ReadDb }, id: number): Slot => {
  const s = slotsRepo(ctx.db).get(id);
  if (!s) throw notFound(`slot ${id}`);
  return s;
};

export const planHandlers = {
  'plan.list': (input, ctx) => {
    const page = slotsRepo(ctx.db).list(input);
    // The page's generation figures in three grouped index reads (generation.slotCounts).
    const counts = new Map(
      generationRepo(ctx.db)
        .slotCounts(page.rows.map((r) => r.id))
        .map((c) => [c.slotId, c]),
    );
    const rows = page.rows.map((r) => {
      const c = counts.get(r.id);
      return { ...r, generated: c?.generated ?? 0, valid: c?.validTasks ?? 0, discarded: c?.discarded ?? 0 };
    });
    return { ...page, rows };
  },
  'plan.get': (input, ctx) => mustGet(ctx, input.id),
  'plan.stats': (input, ctx) => slotsRepo(ctx.db).stats(input),
  'plan.values': (input, ctx) => pagedValues(ctx.db, SLOT_TABLE, input.field, input),
  'plan.ids': (input, ctx) => pagedIds<number>(ctx.db, SLOT_TABLE, input),
  'plan.deleteWhere': (input, ctx) => {
    if (!input.filters.length && !input.quick?.trim())
      throw new AppError('INVALID_INPUT', 'delete by filter needs a filter; nothing was deleted', [
        { path: ['filters'], message: 'at least one filter or a quick search' },
      ]);
    const out = deleteWhere(ctx.db, SLOT_TABLE, input);
    ctx.touch('coverage_slots');
    return out;
  },
  'plan.restoreDeleted': (input, ctx) => {
    // The batch's ids free before the restore: an id taken since stays the other slot's, links and all.
    const free = (
      prepareCached(ctx.db, "SELECT row ->> '$.id' AS id FROM grid_trash WHERE batch = ? AND table_name = ?").all(
        input.batch,
        SLOT_TABLE.table,
      ) as { id: number }[]
    )
      .map((r) => r.id)
      .filter((id) => !slotsRepo(ctx.db).get(id));
    const out = restoreDeleted(ctx.db, SLOT_TABLE, input.batch);
    restoreSlotLinks(ctx.db, free);
    ctx.touch('coverage_slots');
    ctx.touch('tasks');
    return out;
  },

  'plan.create': (input, ctx) => {
    const write = slotsWriter(ctx.db);
    const now = ctx.now();
    const slots = input.rows.map((r) => write.insert(r, now));
    ctx.touch(
      'coverage_slots',
      slots.map((s) => s.id),
    );
    return { slots };
  },

  'plan.update': (input, ctx) => {
    const repo = slotsRepo(ctx.db);
    const write = slotsWriter(ctx.db);
    const parsed: unknown[] = [];
    // An undo carries the value it expects to find: a cell another writer changed since (or a
    // deleted slot) is skipped and reported, never silently overwritten.
    type Skip = { id: number; field: SlotField; current: unknown; reason: 'changed' | 'deleted' };
    const skipped: Skip[] = [];
    const skip = new Set<number>();
    input.edits.forEach((e, i) => {
      if (!('expected' in e) || e.expected === undefined) return;
      const s = repo.get(e.id);
      if (!s) skipped.push({ id: e.id, field: e.field, current: null, reason: 'deleted' }), skip.add(i);
      else if (JSON.stringify(s[e.field]) !== JSON.stringify(e.expected))
        skipped.push({ id: e.id, field: e.field, current: s[e.field], reason: 'changed' }), skip.add(i);
    });
    validateAll(input.edits, (e, i) => {
      if (skip.has(i)) return [];
      if (!repo.get(e.id)) return [{ path: ['edits', i, 'id'], message: `slot ${e.id} was deleted by another writer` }];
      const r = parseField(e.field, e.value, ['edits', i]);
      if (!r.ok) return r.issues;
      parsed[i] = r.value;
      return [];
    });
    const now = ctx.now();
    const kept = input.edits.flatMap((e, i) => (skip.has(i) ? [] : [{ e, i }]));
    const changes = kept.map(({ e, i }) => {
      const before = repo.get(e.id)![e.field];
      write.setField(e.id, e.field, parsed[i], now);
      return { id: e.id, field: e.field, before, after: parsed[i] };
    });
    const ids = [...new Set(kept.map(({ e }) => e.id))];
    if (ids.length) ctx.touch('coverage_slots', ids);
    return { changes, slots: ids.map((id) => repo.get(id)!), skipped };
  },

  'plan.delete': (input, ctx) => {
    const write = slotsWriter(ctx.db);
    // A repeated id is deleted (and answered) once, so the answer can be fed to plan.restore.
    const ids = [...new Set(input.ids)];
    const deleted = ids.map((id) => mustGet(ctx, id));
    for (const s of deleted) write.delete(s.id);
    ctx.touch('coverage_slots', ids);
    return { deleted };
  },

  'plan.restore': (input, ctx) => {
    const repo = slotsRepo(ctx.db);
    const write = slotsWriter(ctx.db);
    const seen = new Set<number>();
    validateAll(input.slots, (s, i) => {
      const issue = repo.get(s.id) ? `slot ${s.id} exists` : seen.has(s.id) ? `slot ${s.id} is given twice` : undefined;
      seen.add(s.id);
      return issue ? [{ path: ['slots', i, 'id'], message: issue }] : [];
    });
    const now = ctx.now();
    const slots = input.slots.map((s) => write.insert(s, now, s.created_at));
    restoreSlotLinks(
      ctx.db,
      slots.map((s) => s.id),
    );
    ctx.touch(
      'coverage_slots',
      slots.map((s) => s.id),
    );
    ctx.touch('tasks');
    return { slots };
  },

  'plan.paste': (input, ctx) => {
    const repo = slotsRepo(ctx.db);
    const write = slotsWriter(ctx.db);
    type Prepared =
      | { kind: 'create'; row: z.output<typeof SlotInput> }
      | { kind: 'update'; id: number; values: [SlotField, unknown][] };
    const prepared: Prepared[] = [];
    validateAll(input.rows, (row, i) => {
      if (row.id !== undefined) {
        if (!repo.get(row.id))
          return [{ path: ['rows', i, 'id'], message: `slot ${row.id} was deleted by another writer` }];
        const values: [SlotField, unknown][] = [];
        const issues: Issue[] = [];
        for (const [field, raw] of Object.entries(row.values) as [SlotField, unknown][]) {
          const r = parseField(field, raw, ['rows', i]);
          if (r.ok) values.push([field, r.value]);
          else issues.push(...r.issues);
        }
        prepared[i] = { kind: 'update', id: row.id, values };
        return issues;
      }
      const r = SlotInput.safeParse(row.values);
      if (!r.success) return issuesOf(r.error, ['rows', i]);
      prepared[i] = { kind: 'create', row: r.data };
      return [];
    });
    const now = ctx.now();
    const created: Slot[] = [];
    const updated: { before: Slot; after: Slot }[] = [];
    for (const p of prepared) {
      if (p.kind === 'create') created.push(write.insert(p.row, now));
      else {
        const before = repo.get(p.id)!;
        for (const [field, value] of p.values) write.setField(p.id, field, value, now);
        updated.push({ before, after: repo.get(p.id)! });
      }
    }
    ctx.touch('coverage_slots', [...created.map((s) => s.id), ...updated.map((u) => u.after.id)]);
    return { created, updated };
  },

  'plan.exportCsv': (input, ctx) => exportCsvPage(ctx.db, input, input.afterId, input.limit),
  'plan.importCsv': (input, ctx) => {
    const r = importCsv(ctx.db, input.file, input.csv, ctx.now());
    if (r.ids.length) ctx.touch('coverage_slots', r.ids);
    return { created: r.created, updated: r.updated };
  },

  'plan.loadDemo': (_input, ctx) => {
    const write = slotsWriter(ctx.db);
    const now = ctx.now();
    const slots = demoPlan.slots.map((r) => write.insert(SlotInput.parse(r), now));
    ctx.touch(
      'coverage_slots',
      slots.map((s) => s.id),
    );
    return { slots };
  },

  'plan.undoGrid': (input, ctx) => {
    const r = undoGrid(ctx.db, input.jobId);
    ctx.touch('coverage_slots');
    return r;
  },

  'plan.generateGrid': (input, ctx) => {
    // Validate every dimension value now, so the worker never fails half-way on bad input.
    validateAll(input.serviceSets, (set, i) => {
      const r = SlotFields.services.safeParse(set);
      return r.success ? [] : issuesOf(r.error, ['serviceSets', i]);
    });
    validateAll(input.referenceDates, (d, i) => {
      const r = SlotFields.reference_date.safeParse(d);
      return r.success ? [] : issuesOf(r.error, ['referenceDates', i]);
    });
    const total = generateGridJob.total(input);
    if (total > 5_000_000)
      throw new AppError('INVALID_INPUT', `the grid has ${total} slots; at most 5,000,000 per job`);
    slotAt(input, 0);
    return { jobId: ctx.jobs.start('plan.generateGrid', input) };
  },
} satisfies Partial<HandlerMap>;
