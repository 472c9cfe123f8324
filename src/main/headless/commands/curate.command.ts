import type { Input, Output } from '../../../shared/contract';
import { bool, type Flags, defineCommand, intFlag, type RunContext, str, strs } from '../cli/command';

type Select = Input<'curation.assign'>['select'];
type BatchOut = Output<'curation.assign'>;

const SELECT_USAGE = '(--tasks <id,id…> | --where <JSON filter> | --all)';

/** --tasks a,b (repeatable), --where '{"filters":[…]}' (the grids' filter model), or --all: exactly one. */
function selection(flags: Flags): { ok: true; select: Select } | { ok: false; message: string } {
  const tasks = strs(flags, 'tasks').flatMap((t) =>
    t
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const where = str(flags, 'where');
  const given = [tasks.length > 0, where !== undefined, bool(flags, 'all')].filter(Boolean).length;
  if (given !== 1) return { ok: false, message: `name the tasks once: ${SELECT_USAGE}` };
  if (tasks.length) return { ok: true, select: { tasks } };
  if (bool(flags, 'all')) return { ok: true, select: { all: true } };
  try {
    const parsed = JSON.parse(where!) as unknown;
    // A bare array is the list of column filters.
    return { ok: true, select: { where: (Array.isArray(parsed) ? { filters: parsed } : parsed) as never } };
  } catch (e) {
    return { ok: false, message: `--where is not JSON: ${(e as Error).message}` };
  }
}

const conflicts = (n: number) => (n ? ` (${n} changed since, left as they are)` : '');

const renderBatch = (ctx: RunContext, noun: string) => (d: BatchOut) =>
  ctx.out(
    d.batchId === null
      ? `0 ${noun} changed (nothing logged)\n`
      : `${d.changed} ${noun} changed — batch ${d.batchId}${conflicts(d.conflicts)}\n`,
  );

const SELECT_OPTIONS = {
  tasks: { type: 'string', multiple: true, value: 'IDS', description: 'task ids, comma-separated (repeatable)' },
  where: { type: 'string', value: 'JSON', description: 'a filter as the curation grid sends it: {"filters":[…]}' },
  all: { type: 'boolean', description: 'every task' },
  reason: { type: 'string', value: 'TEXT', description: 'why (required; written to the curation log)' },
} as const;

export const curateSuggestCommand = defineCommand({
  words: ['curate', 'suggest'],
  summary: 'show suggested against assigned buckets; with --apply, assign the suggestions (one logged batch)',
  options: { ...SELECT_OPTIONS, apply: { type: 'boolean', description: 'assign each selected task its suggestion' } },
  async run({ flags }, ctx) {
    if (bool(flags, 'apply')) {
      const s = selection(flags);
      const reason = str(flags, 'reason');
      if (!s.ok || !reason)
        return ctx.usage(`curate suggest --apply ${SELECT_USAGE} --reason <text>${s.ok ? '' : `: ${s.message}`}`);
      const r = await ctx.call('curation.applySuggestions', { select: s.select, reason });
      return ctx.print(r, renderBatch(ctx, 'tasks'));
    }
    const r = await ctx.call('curation.values', { field: 'suggested', filters: [], limit: 10 });
    const a = await ctx.call('curation.values', { field: 'bucket', filters: [], limit: 10 });
    if (!r.ok || !a.ok) return ctx.print(r.ok ? a : r);
    const both = { suggested: r.data.values, assigned: a.data.values };
    return ctx.print({ ok: true, data: both }, (d: typeof both) => {
      const line = (label: string, vs: { value: string | number; count: number }[]) =>
        ctx.out(`${label.padEnd(10)} ${vs.map((v) => `${v.value || 'none'} ${v.count}`).join(' · ') || '—'}\n`);
      line('suggested', d.suggested);
      line('assigned', d.assigned);
    });
  },
});

export const curateAssignCommand = defineCommand({
  words: ['curate', 'assign'],
  summary: 'assign a bucket to tasks by ids, filter or all (one transaction, one logged batch)',
  options: {
    bucket: { type: 'string', value: 'KEEP|TRIVIAL|UNSOLVABLE|NONE', description: 'the bucket (NONE clears it)' },
    ...SELECT_OPTIONS,
  },
  details: ['Prints the number of tasks changed and the batch id (undo it with `curate undo --batch ID`).'],
  async run({ flags }, ctx) {
    const bucket = str(flags, 'bucket')?.toUpperCase();
    const s = selection(flags);
    const reason = str(flags, 'reason');
    if (!bucket || !['KEEP', 'TRIVIAL', 'UNSOLVABLE', 'NONE'].includes(bucket) || !s.ok || !reason)
      return ctx.usage(
        `curate assign --bucket KEEP|TRIVIAL|UNSOLVABLE|NONE ${SELECT_USAGE} --reason <text>` +
          (s.ok ? '' : `: ${s.message}`),
      );
    const r = await ctx.call('curation.assign', {
      bucket: bucket === 'NONE' ? null : (bucket as 'KEEP'),
      select: s.select,
      reason,
    });
    return ctx.print(r, renderBatch(ctx, 'tasks'));
  },
});

export const curateLogCommand = defineCommand({
  words: ['curate', 'log'],
  summary: 'the curation log, newest first (or one batch and its changes with --batch)',
  options: {
    batch: { type: 'string', value: 'ID', description: 'show one batch with its before/after per item' },
    limit: { type: 'string', value: 'N', description: 'how many batches (default 20)' },
  },
  async run({ flags }, ctx) {
    const limit = intFlag(flags, 'limit', { min: 1, max: 5000, fallback: 20 });
    if (!limit.ok) return ctx.usage(limit.message);
    const id = str(flags, 'batch');
    if (id !== undefined) {
      if (!/^\d+$/.test(id)) return ctx.usage(`--batch must be a batch id, not "${id}"`);
      const r = await ctx.call('curation.batch', { id: Number(id), limit: limit.value });
      return ctx.print(r, (d: Output<'curation.batch'>) => {
        ctx.out(`${batchLine(d.batch)}\n`);
        for (const c of d.changes) ctx.out(`  ${c.item}: ${c.before ?? '—'} → ${c.after ?? '—'}\n`);
        if (d.total > d.changes.length) ctx.out(`  … ${d.total - d.changes.length} more\n`);
      });
    }
    const r = await ctx.call('curation.log', { limit: limit.value, sort: [{ field: 'id', dir: 'desc' }] });
    return ctx.print(r, (d: Output<'curation.log'>) => {
      if (!d.rows.length) ctx.out('no curation batches yet\n');
      for (const b of d.rows) ctx.out(`${batchLine(b)}\n`);
    });
  },
});

function batchLine(b: Output<'curation.batch'>['batch']): string {
  const what =
    b.of_batch !== null ? `${b.kind} of batch ${b.of_batch}` : `${b.kind} ${b.target} → ${b.value ?? '(per item)'}`;
  const undone = b.undone_by !== null ? ` [undone by ${b.undone_by}]` : '';
  return `#${b.id} ${b.at} ${b.who}: ${what}, ${b.changed} changed — ${b.reason}${undone}`;
}

const undoRedoCommand = (undo: boolean) =>
  defineCommand({
    words: ['curate', undo ? 'undo' : 'redo'],
    summary: undo
      ? 'undo a curation batch (default: the latest not undone); logged as a batch of its own'
      : 'redo an undone curation batch (default: the one undone last)',
    options: {
      batch: { type: 'string', value: 'ID', description: 'the batch' },
      reason: { type: 'string', value: 'TEXT', description: 'why (default: "undo of batch N")' },
    },
    async run({ flags }, ctx) {
      const id = str(flags, 'batch');
      if (id !== undefined && !/^\d+$/.test(id)) return ctx.usage(`--batch must be a batch id, not "${id}"`);
      const reason = str(flags, 'reason');
      const r = await ctx.call(undo ? 'curation.undo' : 'curation.redo', {
        ...(id !== undefined ? { batchId: Number(id) } : {}),
        ...(reason ? { reason } : {}),
      });
      return ctx.print(r, renderBatch(ctx, 'items'));
    },
  });

export const curateUndoCommand = undoRedoCommand(true);
export const curateRedoCommand = undoRedoCommand(false);
