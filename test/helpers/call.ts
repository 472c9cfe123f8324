import type { AppErrorBody, Input, Output, ProcedureName } from '../../src/shared/contract';
import type { Slot } from '../../src/shared/contract/entities/slot';

type Dispatcher = {
  dispatch(name: string, input: unknown): Promise<{ ok: true; data: unknown } | { ok: false; error: AppErrorBody }>;
};

/** Calls a procedure and answers its data; a failed envelope fails the test with the error it carried. */
export async function ok<N extends ProcedureName>(core: Dispatcher, name: N, input: Input<N>): Promise<Output<N>> {
  const r = await core.dispatch(name, input);
  if (!r.ok) throw new Error(`${name} failed: ${JSON.stringify(r.error)}`);
  return r.data as Output<N>;
}

/** Calls a procedure that must fail and answers the error body. Input is unknown on purpose: tests send bad values. */
export async function fail(core: Dispatcher, name: string, input: unknown): Promise<AppErrorBody> {
  const r = await core.dispatch(name, input);
  if (r.ok) throw new Error(`${name} should have failed but answered ${JSON.stringify(r.data).slice(0, 300)}`);
  return r.error;
}

/** A valid slot input; override what the test is about. */
export function slotInput(over: Record<string, unknown> = {}): Input<'plan.create'>['rows'][number] {
  return {
    family: 'fam',
    services: ['gmail'],
    category: 'communication',
    difficulty: 'easy',
    language: 'en',
    reference_date: '2026-03-02',
    scenario: 'single_service',
    target_count: 1,
    notes: '',
    ...over,
  } as Input<'plan.create'>['rows'][number];
}

/**
 * Every slot, in id order (for before/after comparisons): the grid's generation counts beside each
 * row are left out, so the rows compare with what plan.get, plan.create and plan.delete answer.
 */
export async function allSlots(core: Dispatcher): Promise<Slot[]> {
  const page = await ok(core, 'plan.list', { limit: 5000 });
  return page.rows.map(({ generated: _g, valid: _v, discarded: _d, ...slot }) => slot);
}
