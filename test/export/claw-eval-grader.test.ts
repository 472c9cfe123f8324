import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import type { ExportTask } from '../../src/main/core/export/export-task';
import { grade } from '../../src/main/core/grading/grade';
import { runRecordOf } from '../../src/main/core/grading/run-record';
import { readTrace, writeTrace } from '../../src/main/core/traces';
import { synthTrajectory } from '../helpers/claw-traces';
import { corpusExportTasks, hasCorpus } from '../helpers/corpus-tasks';
import { goldenTaskIds, hasGoldens } from '../helpers/goldens';
import { PYTHON, python } from '../helpers/python';
import { deterministicTask, handTask, planTurns, rollout, type Call } from '../helpers/rollouts';
import { SAFETY_SCENARIOS } from '../helpers/safety-scenarios';
import { tempDir } from '../helpers/temp';
import { trickyTask } from '../helpers/tricky-task';

const READS = /_(list|get|search|fetch|history)|_user_events|_messages$/;

/**
 * Runs of the hand-written tasks: the plan, the plan plus a prohibited call, errors then recovery, partial answers,
 * nothing.
 */
function handRuns(t: ExportTask): Trajectory[] {
  const plan = planTurns(t);
  const answer = t.spec.reference_final_text ?? '';
  const bad: Call[] =
    t.spec.task_id === 'HW010_tricky_yaml'
      ? [{ tool: 'web_search', args: { query: 'vpn', limit: 5.0 } }]
      : [{ tool: 'gmail_send_message', args: { to: 'dana@example.com', subject: 's', body: 'b' } }];
  return [
    rollout(t, plan, answer, 'plan'),
    rollout(t, [...plan, bad], answer, 'prohibited'),
    rollout(
      t,
      [[{ tool: 'no_such_tool' }], [{ tool: 'helpdesk_update_ticket', args: {} }], ...plan],
      answer.slice(0, 20),
      'errors',
    ),
    rollout(t, plan.slice(0, 2), answer.toUpperCase(), 'partial'),
    rollout(t, [[{ tool: 'web_search', args: { query: 'VPN status', limit: 3.0 } }]], '工单 TK-77 yes', 'float'),
    rollout(t, [], '', 'nothing'),
  ];
}

/**
 * Corpus runs from the recorded goldens: all calls; reads only with half the keywords; writes only with every keyword.
 */
function corpusRuns(t: ExportTask): Trajectory[] {
  const words = t.spec.checks.flatMap((c) =>
    c.kind === 'final_text' ? [...(c.contains_all ?? []), ...(c.contains_any ?? [])] : [],
  );
  return [
    synthTrajectory(t.spec.task_id),
    synthTrajectory(t.spec.task_id, {
      keep: (tool) => READS.test(tool),
      finalText: words.filter((_, i) => i % 2).join(' '),
    }),
    synthTrajectory(t.spec.task_id, { keep: (tool) => !READS.test(tool), finalText: `Summary: ${words.join(', ')}.` }),
    // A run that writes what an assistant_text rule forbids (T027/T028: a credential from the config data).
    ...t.spec.prohibited.flatMap((r) =>
      r.kind === 'assistant_text'
        ? [synthTrajectory(t.spec.task_id, { finalText: `Here it is: ${r.contains_any[0]} (${words.join(' ')})` })]
        : [],
    ),
  ];
}

const summary = (g: ReturnType<typeof grade>) => ({
  completion: g.completion,
  safety: g.safety,
  robustness: g.robustness,
  score: g.score,
  passed: g.passed,
  incomplete: g.incomplete,
  pending_weight: g.pendingWeight,
  checks: g.checks.map((c) => ({ id: c.id, kind: c.kind, weight: c.weight, score: c.score })),
});

describe.skipIf(!PYTHON.ok)(
  `grader.py and the app's grader agree${PYTHON.ok ? '' : ` (skipped: ${PYTHON.why})`}`,
  () => {
    const hand = [handTask(), deterministicTask(), trickyTask()].map((t, i) =>
      i === 1 ? { ...t, spec: { ...t.spec, task_id: 'HW002_det' } } : t,
    );
    const goldens = new Set(hasGoldens ? goldenTaskIds() : []);
    const corpus = hasCorpus ? corpusExportTasks((id) => goldens.has(id)) : [];
    let out: string;
    beforeAll(async () => {
      out = path.join(tempDir(), 'claw');
      await exportClawEval({ tasks: [...hand, ...corpus], outDir: out });
    });

    async function compare(cases: { task: ExportTask; run: Trajectory }[]) {
      const work = tempDir();
      const args: string[] = [];
      const ours = cases.map(({ task, run }, i) => {
        const file = path.join(work, `${i}.jsonl`);
        fs.writeFileSync(
          file,
          writeTrace(run, {
            now: () => new Date('2026-04-10T09:00:00Z'),
            traceId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          }),
        );
        args.push(path.join(out, 'tasks', task.spec.task_id, 'grading.json'), file);
        // Both graders read the same bytes: ours through the trace reader (floats stay PyFloat).
        return summary(grade(task.spec, runRecordOf(readTrace(fs.readFileSync(file, 'utf8')).trajectory)));
      });
      const grader = path.join(out, 'tasks', cases[0]!.task.spec.task_id, 'grader.py');
      const lines = (await python([path.join(__dirname, 'fixtures/grade_many.py'), grader, ...args]))
        .trim()
        .split('\n');
      const theirs = lines.map((l) => {
        const g = JSON.parse(l);
        return { ...summary({ ...g, pendingWeight: g.pending_weight, checks: g.checks } as never) };
      });
      expect(theirs).toEqual(ours);
      return ours;
    }

    it('on runs of hand-written tasks (every matcher, prohibited calls, errors, recovery, floats, CJK)', async () => {
      const got = await compare(hand.flatMap((task) => handRuns(task).map((run) => ({ task, run }))));
      expect(got).toHaveLength(18);
      const scores = new Set(got.map((g) => g.score));
      expect(scores.size).toBeGreaterThan(8);
      expect(got.filter((g) => g.safety === 0)).toHaveLength(3);
      expect(got.some((g) => g.robustness > 0 && g.robustness < 1)).toBe(true);
      expect(got.find((g) => g.score === 1)).toBeDefined(); // HW002's plan
    });

    it.skipIf(!corpus.length)('on traces made from the corpus goldens (126 traces of T001–T042)', async () => {
      const got = await compare(corpus.flatMap((task) => corpusRuns(task).map((run) => ({ task, run }))));
      const leaks = corpus.filter((t) => t.spec.prohibited.some((r) => r.kind === 'assistant_text')).length;
      expect(got).toHaveLength(corpus.length * 3 + leaks);
      expect(new Set(got.map((g) => g.completion)).size).toBeGreaterThan(20);
      expect(got.some((g) => g.safety === 0)).toBe(true);
    });

    it.skipIf(!corpus.length)('on runs that break or keep each typed safety rule (issue 19 item 1)', async () => {
      const byId = new Map(corpus.map((t) => [t.spec.task_id, t]));
      const cases = SAFETY_SCENARIOS.filter((s) => byId.has(s.id)).flatMap((s) =>
        [...s.violating, s.compliant].map((r) => ({
          task: byId.get(s.id)!,
          run: rollout(
            byId.get(s.id)!,
            r.calls.map((c) => [c]),
            r.final ?? 'Done.',
          ),
          judged: s.judged === true,
        })),
      );
      const got = await compare(cases);
      // Matchers give 0 on both sides; a judged rule is pending on both sides (no judge in grader.py).
      expect(got.filter((g) => g.safety === 0).length).toBeGreaterThan(0);
      got.forEach((g, i) => cases[i]!.judged && expect(g.incomplete).toBe(true));
    });
  },
);

describe.skipIf(!PYTHON.ok)("grader.py's JavaScript semantics", () => {
  it('JSON.stringify, Number("…") and RegExp behave as in JS', async () => {
    const cases = {
      stringify: [
        1e-7,
        1e21,
        123456789012345680000,
        0.1 + 0.2,
        100,
        -0.5,
        1e-6,
        5e-324,
        { b: 1, '1': 2, a: [1.5, 'x\n\u0001é'] },
        [true, null],
        '引号"\\',
      ],
      num: [
        '12',
        ' 12 ',
        '1e3',
        '0x1F',
        '0b11',
        '0o7',
        '-0x10',
        '1_000',
        'inf',
        'Infinity',
        '',
        'abc',
        '.5',
        '5.',
        true,
        null,
        3,
        '\t7\n',
      ],
      regex: [
        ['\\bTK-\\d+\\b', '工单TK-3001已', false],
        ['^a.c$', 'a\rc', false],
        ['^abc$', 'abc\n', false],
        ['(?<y>\\d{4})-\\k<y>', '2026-2026', false],
        ['\\w', 'é', false],
        ['[\\d]+', '٣', false],
        ['HIG', 'high', true],
        ['\\s', '\u3000', false],
        ['a\\.b', 'a.b', false],
      ] as [string, string, boolean][],
    };
    const file = path.join(tempDir(), 'cases.json');
    fs.writeFileSync(file, JSON.stringify(cases));
    const grader = path.join(tempDir(), 'grader.py');
    const { GRADER_PY } = await import('../../src/main/core/export/claw-eval/grader-py');
    fs.writeFileSync(grader, GRADER_PY);
    const py = JSON.parse(await python([path.join(__dirname, 'fixtures/js_semantics.py'), grader, file]));
    const jsNum = (v: unknown) =>
      typeof v === 'number'
        ? v
        : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
          ? Number(v)
          : null;
    expect(py).toEqual({
      stringify: cases.stringify.map((v) => JSON.stringify(v)),
      num: cases.num.map(jsNum),
      regex: cases.regex.map(([p, t, ci]) => new RegExp(p, ci ? 'i' : '').test(t)),
    });
  });
});
