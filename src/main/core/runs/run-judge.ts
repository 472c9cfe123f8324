import type { CheckResult, GradeResult } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { gradingView, type Grading } from '../../../shared/contract/entities/trajectory';
import type { Episode } from '../agents/agent-loop';
import type { ReadDb } from '../db/sqlite';
import type { KeyAccess } from '../endpoints/key-store';
import { grade } from '../grading/grade';
import { cachedJudge, isCached, withFreshVerdicts } from '../grading/judge/judge-cache';
import type { JudgeVerdict } from '../grading/judge/judge-check';
import { judgeClient } from '../grading/judge/judge-client';
import { judgePass, needsJudge } from '../grading/judge/judge-pass';
import { judgeEndpoint } from '../grading/judge/judge-settings';
import { runRecordOf } from '../grading/run-record';
import { withoutKnownKeys } from '../lib/secrets/known-keys';
import { gradableRun } from '../trajectories/stored-grade';

/** What judging one finished episode gives: the episode graded with the verdicts, and the verdicts to cache. */
export type Judged = { episode: Episode; verdicts: JudgeVerdict[]; asked: number };

/**
 * The judge of a run (issue 19 item 2): the workspace's judge endpoint, asked about a finished episode's llm_judge
 * checks before its row is built, so the row is stored once with its final grade and its verdicts go to judge_cache
 * in the same commit. Requests already cached are not asked again (a re-run of the same trace makes no call).
 */
export type RunJudge = {
  model: string;
  judge(spec: TaskSpec, e: Episode, signal: AbortSignal): Promise<Judged>;
};

/**
 * The run's judge, or null without a judge endpoint (checks then stay "judge pending", as before). The client
 * retries as the run's agent client does (maxAttempts, timeouts too); an endpoint without its key still gives a
 * judge, whose every check is pending with that reason: a judge problem never fails the run.
 */
export function runJudge(db: ReadDb, keys: KeyAccess, o: { maxAttempts: number }): RunJudge | null {
  const e = judgeEndpoint(db);
  if (!e) return null;
  const client = judgeClient(e, keys, { retry: { maxAttempts: o.maxAttempts, retryTimeouts: true } });
  const model = e.model;
  const cache = cachedJudge(db, model);
  return {
    model,
    async judge(spec, episode, signal) {
      if (episode.stop === 'error' || !needsJudge(spec)) return { episode, verdicts: [], asked: 0 };
      const run = runRecordOf(gradableRun(episode.trajectory));
      const pass = await judgePass([{ task: spec, run }], client, model, (k) => isCached(db, k), signal);
      // An endpoint failure left no verdict: the check says why it is pending (never cached: asked again later).
      const { judge: overlay, verdicts } = withFreshVerdicts(cache, model, pass);
      // Evidence quotes the conversation and the judge's answer: a key either echoed is replaced, as in bodies.
      const g = JSON.parse(withoutKnownKeys(JSON.stringify(grade(spec, run, overlay)))) as GradeResult;
      return { episode: regraded(episode, spec, g), verdicts, asked: pass.asked };
    },
  };
}

/**
 * The episode with grade `g`: its trajectory's last grading carries the judged scores and, as Claw-Eval's
 * grading_result, one judge_calls entry per scored judge check.
 */
function regraded(e: Episode, spec: TaskSpec, g: GradeResult): Episode {
  const t = e.trajectory;
  const last = t.gradings.at(-1);
  if (!last) return { ...e, grade: g };
  const grading: Grading = {
    ...last,
    scores: { ...last.scores, completion: g.completion, robustness: g.robustness, safety: g.safety },
    task_score: g.score,
    passed: g.passed,
    judge_calls: judgeCalls(spec, g.checks, last.meta?.timestamp ?? null),
  };
  const gradings = [...t.gradings.slice(0, -1), grading];
  return { ...e, grade: g, trajectory: { ...t, gradings, ...gradingView(gradings) } };
}

function judgeCalls(spec: TaskSpec, checks: readonly CheckResult[], timestamp: string | null) {
  const rubrics = new Map(spec.checks.flatMap((c) => (c.kind === 'llm_judge' ? [[c.id, c.rubric]] : [])));
  return checks.flatMap((c) =>
    c.evidence.flatMap((ev) =>
      ev.kind === 'judge' && ev.score !== null
        ? [
            {
              method: 'evaluate',
              rubric_preview: (rubrics.get(c.id) ?? '').slice(0, 300),
              score: ev.score,
              reasoning: ev.reasoning,
              model: ev.model,
              timestamp,
            },
          ]
        : [],
    ),
  );
}
