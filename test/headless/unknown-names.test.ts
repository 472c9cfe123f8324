import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { fail } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { createTestCore, tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

/**
 * A task id or pool name the workspace does not hold is a typo or another workspace. Answering it with an empty
 * success ("0 tasks changed", "0 of 6 exported", a job that imports everything as external) reads as done; every
 * command refuses it instead, before any job starts, naming each unknown value (and the known ones where few).
 */
// One reference run (a job worker through tsx) makes the trajectories: seconds on a busy machine.
describe('unknown task ids, pools and collections are errors that name them', { timeout: 120_000 }, () => {
  let ws: string;
  let known: string;
  const cli = (...argv: string[]) => runCliCaptured(['--workspace', ws, ...argv]);
  const out = () => path.join(tempDir('unknown-out-'), 'out');

  beforeAll(async () => {
    const tasks = generatedTasks(3);
    known = tasks[0]!.task_id;
    const t = runWorkspace(tasks);
    await t.core.close();
    ws = t.workspacePath;
    const run = await cli('run', '--tasks', 'all', '--trials', '1', '--agent', 'reference');
    expect(run.code, run.stderr).toBe(0);
  });

  /** Exits non-zero, starts no job, writes nothing, and names every unknown value. */
  async function refused(argv: string[], names: RegExp[], outDir?: string) {
    const r = await cli(...argv);
    expect(r.code, `${argv.join(' ')}\n${r.stdout}`).not.toBe(0);
    expect(r.stderr, argv.join(' ')).not.toMatch(/^job /m);
    for (const n of names) expect(r.stderr, argv.join(' ')).toMatch(n);
    if (outDir) expect(fs.existsSync(outDir)).toBe(false);
    return r.stderr;
  }

  it('export rl and export claw-eval --task: every unknown id, before the job', async () => {
    for (const words of [
      ['export', 'rl'],
      ['export', 'claw-eval'],
    ]) {
      const dir = out();
      const argv = [...words, '--out', dir, '--task', 'NO_SUCH', '--task', known, '--task', 'ALSO_NOT'];
      const e = await refused(argv, [/no such tasks: NO_SUCH, ALSO_NOT/], dir);
      expect(e).not.toContain(`, ${known}`);
    }
  });

  it('export sft --pool and --collection: the unknown names and the known ones', async () => {
    const dir = out();
    const pool = ['export', 'sft', '--dialect', 'trl', '--out', dir, '--all-uncurated', '--pool', 'nope'];
    await refused(pool, [/no such pool: nope/, /known: mixed, multi_service_safety/], dir);
    const listed = await cli('--json', 'call', 'trajectories.collections');
    const real = (JSON.parse(listed.stdout) as { data: { name: string }[] }).data[0]!.name;
    const argv = ['export', 'sft', '--dialect', 'trl', '--out', dir, '--all-uncurated'];
    await refused(
      [...argv, '--collection', 'nope', '--collection', real, '--collection', 'gone'],
      [/no such collections: nope, gone/, new RegExp(`known: ${real.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)],
    );
    // A pool named with its own rule (--min-reward) is known.
    const own = await cli(...argv, '--pool', 'mine', '--min-reward', '0');
    expect(own.code, own.stderr).toBe(0);
  });

  it('curate assign and suggest --apply --tasks: unknown ids named, nothing assigned', async () => {
    const assign = ['curate', 'assign', '--bucket', 'KEEP', '--reason', 'r', '--tasks', `NO_SUCH,${known},ALSO_NOT`];
    await refused(assign, [/no such tasks in the curation grid: NO_SUCH, ALSO_NOT/]);
    await refused(['curate', 'suggest', '--apply', '--reason', 'r', '--tasks', 'NO_SUCH'], [/NO_SUCH/]);
    const log = await cli('curate', 'log', '--json');
    expect(JSON.parse(log.stdout).data.rows).toEqual([]);
  });

  it('the commands that already refused still do (validate, grade, env replay, run, report)', async () => {
    const file = path.join(tempDir('unknown-in-'), 'x.jsonl');
    fs.writeFileSync(file, '{"tool": "x", "args": {}}\n');
    await refused(['validate', '--task', 'NO_SUCH', '--task', 'ALSO_NOT'], [/NO_SUCH, ALSO_NOT/]);
    await refused(['grade', '--task', 'NO_SUCH', '--trace', file], [/NO_SUCH/]);
    await refused(['env', 'replay', '--task', 'NO_SUCH', '--calls', file], [/NO_SUCH/]);
    await refused(['run', '--tasks', 'NO_SUCH,ALSO_NOT', '--agent', 'reference'], [/NO_SUCH, ALSO_NOT/]);
    await refused(['report', '--collection', 'nope'], [/nope/]);
  });
});

describe('the same refusals through dispatch (HTTP and the renderer call these)', () => {
  let core: Core;
  beforeAll(() => {
    core = createTestCore({ seedDemo: false }).core;
  });
  afterAll(() => core?.close());

  it('curation.override by unknown trajectory ids, setPool by unknown task ids', async () => {
    const o = await fail(core, 'curation.override', {
      override: 'exclude',
      select: { trajectories: [7, 9] },
      reason: 'r',
    });
    expect(o).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/no such trajectories: 7, 9/) });
    const p = await fail(core, 'curation.setPool', { pool: 'mixed', select: { tasks: ['NO_SUCH'] }, reason: 'r' });
    expect(p).toMatchObject({ code: 'NOT_FOUND', issues: [{ path: ['select', 'tasks', 0], message: 'unknown' }] });
  });
});
