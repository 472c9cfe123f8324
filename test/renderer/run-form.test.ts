import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/main/headless/commands/run.command';
import { CLI_FLAG_FIELDS, DEFAULT_FORM, runInput } from '../../src/renderer/src/features/runs/run-form';
import { parseRoute, routeHash } from '../../src/renderer/src/router';
import { runsContract } from '../../src/shared/contract/runs.contract';

const form = (over: Partial<typeof DEFAULT_FORM>) => ({ ...DEFAULT_FORM, ...over });

describe("the Runs page's New run form", () => {
  it('offers every option of `coworkenv run` (not fewer)', () => {
    expect(Object.keys(runCommand.options ?? {}).sort()).toEqual(Object.keys(CLI_FLAG_FIELDS).sort());
    for (const field of Object.values(CLI_FLAG_FIELDS))
      if (field !== 'resume-button') expect(DEFAULT_FORM).toHaveProperty(field);
  });

  it('the defaults are runs.start with the CLI defaults: all tasks, reference agent, 3 trials, 4 at once', () => {
    const r = runInput(DEFAULT_FORM);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(runsContract['runs.start'].input.parse(r.input)).toMatchObject({
      tasks: 'all',
      agent: { kind: 'reference', seed: 0, clean: false },
      user: { kind: 'scripted' },
      trials: 3,
      concurrency: 4,
      maxAttempts: 4,
    });
  });

  it('builds ids, a filter, perturbation rates and endpoints as the CLI does', () => {
    const r = runInput(
      form({
        taskMode: 'filter',
        quick: 'inventory',
        where: '[{"field":"origin","conditions":[{"op":"notEqual","value":"imported"}]}]',
        perturb: 'rates',
        skipStep: '0.2',
        trials: '2',
        collection: 'student A',
      }),
    );
    expect(r).toEqual({
      ok: true,
      input: {
        tasks: 'all',
        where: {
          filters: [{ field: 'origin', conditions: [{ op: 'notEqual', value: 'imported' }] }],
          quick: 'inventory',
        },
        agent: {
          kind: 'reference',
          seed: 0,
          clean: false,
          perturbations: { skip_step: 0.2, wrong_argument: 0, prohibited_call: 0 },
        },
        user: { kind: 'scripted' },
        trials: 2,
        concurrency: 4,
        maxAttempts: 4,
        collection: 'student A',
      },
    });
    const e = runInput(form({ taskMode: 'ids', ids: 'T1, T2\nT3', agent: 'endpoint:teacher', user: 'endpoint:u' }));
    expect(e.ok && e.input).toMatchObject({
      tasks: ['T1', 'T2', 'T3'],
      agent: { kind: 'endpoint', endpoint: 'teacher', temperature: 0 },
      user: { kind: 'endpoint', endpoint: 'u' },
    });
  });

  it("refuses what runs.start's schema refuses, on the field that holds it", () => {
    const bad = (over: Partial<typeof DEFAULT_FORM>) => {
      const r = runInput(form(over));
      expect(r.ok).toBe(false);
      return r.ok ? {} : r.errors;
    };
    expect(bad({ trials: '0' })).toHaveProperty('trials');
    expect(bad({ trials: 'three' }).trials).toMatch(/number/);
    expect(bad({ concurrency: '65' })).toHaveProperty('concurrency');
    expect(bad({ perturb: 'rates', skipStep: '1.5' })).toHaveProperty('skipStep');
    expect(bad({ perturb: 'rates', clean: true }).clean).toBe('a clean run takes no perturbation rates');
    expect(bad({ collection: 'a/b' }).collection).toMatch(/no slashes/);
    expect(bad({ taskMode: 'filter', where: '{"filters": [' }).where).toMatch(/^not JSON/);
    expect(bad({ taskMode: 'filter' })).toHaveProperty('quick');
    expect(bad({ taskMode: 'ids', ids: ' , ' })).toHaveProperty('ids');
    expect(
      bad({ taskMode: 'filter', where: '[{"field":"nope","conditions":[{"op":"equals","value":1}]}]' }),
    ).toHaveProperty('where');
  });
});

describe('run URLs', () => {
  it('#/runs, #/runs/<id> and #/runs/<id>/compare/<id> round-trip', () => {
    for (const r of [
      { page: 'runs' as const },
      { page: 'runs' as const, runId: 3 },
      { page: 'runs' as const, runId: 3, compareId: 7 },
      { page: 'trajectories' as const, trajectoryId: 12, compareId: 40 },
    ])
      expect(parseRoute(routeHash(r))).toEqual(r);
    expect(parseRoute('#/runs/x')).toEqual({ page: 'runs' });
  });
});
