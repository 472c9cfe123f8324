import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { computeAdvantages } from '../../src/main/core/export/advantages/compute';
import { DEFAULT_ADVANTAGE_SETTINGS as D } from '../../src/main/core/export/advantages/settings';
import { taskClock } from '../../src/main/core/export/export-task';
import { rolloutIds } from '../../src/main/core/export/workspace/rl-inputs';
import { openDb, readHandle } from '../../src/main/core/db/sqlite';
import { CLOCK, handTask, planTurns, rollout } from '../helpers/rollouts';
import { tempDir } from '../helpers/test-core';

/**
 * Issue 18 item 6: a task's rollouts by a student (3) and a teacher (5) are two groups, each normalised against its
 * own mean: mixed, the teacher's successes made every student rollout look bad.
 */
const task = handTask();
const tasks = new Map([[task.spec.task_id, task]]);
const clockOf = () => taskClock(task.spec, CLOCK);
const good = rollout(task, planTurns(task), 'I raised TK-3001 and drafted a reply.', 'g');
const poor = rollout(task, [[{ tool: 'helpdesk_list_tickets', args: { status: 'open' } }]], 'Nothing to do.', 'p');
const as = (t: typeof good, id: string, model: string) => ({ ...t, trajectory_id: id, model });

// Student: 1 good, 2 poor; teacher: 4 good, 1 poor.
const student = [good, poor, poor].map((t, i) => as(t, `s${i}`, 'student'));
const teacher = [good, good, poor, good, good].map((t, i) => as(t, `t${i}`, 'teacher'));
const rollouts = [...student, ...teacher];
const keyOf = (agent: string, run: number) => ({ run_id: run, collection: null, agent });
const keys = [...student.map(() => keyOf('student', 1)), ...teacher.map(() => keyOf('teacher', 2))];

describe('RL groups are (task, run or collection, agent)', () => {
  it('3 student + 5 teacher rollouts: two groups, each with its own advantages', () => {
    const r = computeAdvantages(tasks, rollouts, { ...D, method: 'grpo' }, clockOf, keys);
    expect(r.groups.map((g) => [g.agent, g.run_id, g.rollouts])).toEqual([
      ['student', 1, 3],
      ['teacher', 2, 5],
    ]);
    // Each group alone is what the student's (or the teacher's) rollouts give by themselves.
    const alone = (xs: typeof rollouts) => computeAdvantages(tasks, xs, { ...D, method: 'grpo' }, clockOf).rollouts;
    const adv = r.rollouts.map((x) => x.advantage);
    expect(adv.slice(0, 3)).toEqual(alone(student).map((x) => x.advantage));
    expect(adv.slice(3)).toEqual(alone(teacher).map((x) => x.advantage));
    // The student's good rollout is above its own group's mean (with the teacher's it would be at theirs).
    expect(adv[0]).toBeGreaterThan(1);
    expect(r.rollouts[3]!.group).toEqual(keyOf('teacher', 2));
  });

  it('without a stored lineage, the model is the agent', () => {
    const r = computeAdvantages(tasks, rollouts, { ...D, method: 'grpo' }, clockOf);
    expect(r.groups.map((g) => [g.agent, g.rollouts])).toEqual([
      ['student', 3],
      ['teacher', 5],
    ]);
  });

  it("the stored rollouts: a student's trial 0 and a teacher's are both kept, each in its group", async () => {
    const file = path.join(tempDir('rl-groups-'), 'w.coworkenv.db');
    await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
    const db = openDb(file);
    try {
      const now = '2026-03-01T09:00:00.000Z';
      db.prepare("INSERT INTO collections (name, created_at, updated_at) VALUES ('c', ?, ?)").run(now, now);
      const run = db.prepare(
        "INSERT INTO runs (id, name, agent_kind, agent_label, state, created_at) VALUES (?, ?, 'model', ?, 'done', ?)",
      );
      run.run(1, 'student run', 'student', now);
      run.run(2, 'teacher run', 'teacher', now);
      const insert = db.prepare(
        `INSERT INTO trajectories (task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id,
           run_id, trial, collection, external, valid, superseded, message_count, tool_call_count, char_count, graded,
           created_at)
         VALUES ('T', ?, ?, ?, ?, 'run', 'studio', 'T', ?, ?, 'c', 0, 1, 0, 6, 0, 100, 0, ?)`,
      );
      let n = 0;
      for (const [agent, runId, trials] of [
        ['student', 1, 3],
        ['teacher', 2, 5],
      ] as const)
        for (let trial = 0; trial < trials; trial++)
          insert.run(`x${n}`, `${n++}`.padStart(64, '0'), agent, agent, runId, trial, now);
      const all = rolloutIds(readHandle(db), ['T']);
      expect(all.map((r) => `${r.group.agent}/${r.group.run_id}`)).toEqual([
        ...Array(3).fill('student/1'),
        ...Array(5).fill('teacher/2'),
      ]);
      // --agent / --run / --collection narrow the rollouts like export sft's --collection.
      expect(rolloutIds(readHandle(db), ['T'], { agents: ['student'] })).toHaveLength(3);
      expect(rolloutIds(readHandle(db), ['T'], { runs: [2], collections: ['c'] })).toHaveLength(5);
      expect(rolloutIds(readHandle(db), ['T'], { collections: ['other'] })).toHaveLength(0);
    } finally {
      db.close();
    }
  });
});
