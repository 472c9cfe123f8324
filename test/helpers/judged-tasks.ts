import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { generatedTasks } from './generated-tasks';
import { planModel } from './plan-model';
import { chat, type RecordedRequest, type Step } from './scripted-openai';

/** Runs of judge-scored tasks (issue 19 item 2): tasks, a scripted teacher and a scripted judge's verdict. */
export const JUDGE_RUBRIC = 'Did the assistant finish the request and say what it did?';

/** Generated tasks with their checks' weights halved and an llm_judge check of weight 0.5 added. */
export function judgedTasks(n: number): TaskSpec[] {
  return generatedTasks(n).map((t) => ({
    ...t,
    checks: [
      ...t.checks.map((c) => ({ ...c, weight: c.weight / 2 })),
      { id: 'judged', description: 'judged', kind: 'llm_judge' as const, weight: 0.5, rubric: JUDGE_RUBRIC },
    ],
  }));
}

/** A teacher solving every task by its plan (tasks with a simulated user open with a question). */
export function teacherScript(tasks: readonly TaskSpec[]) {
  const byPrompt = new Map(tasks.map((t) => [t.prompt.text, t]));
  const models = new Map(
    tasks.map((t) => [t.task_id, planModel(t, t.user_agent?.enabled ? { ask: 'Anything I should know?' } : {})]),
  );
  return (req: RecordedRequest): Step => {
    const spec = byPrompt.get(String(req.body?.messages[1]?.content));
    return spec ? models.get(spec.task_id)!(req) : { type: 'error', status: 400, message: 'unknown task prompt' };
  };
}

export const verdict = (score: number, reasoning = 'the request was done and reported') =>
  chat(`\`\`\`json\n{"score": ${score}, "reasoning": "${reasoning}"}\n\`\`\``);
