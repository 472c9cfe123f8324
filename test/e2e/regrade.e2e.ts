import path from 'node:path';
import { writeTrace } from '../../src/main/core/traces';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import { chat, type ScriptedServer, startScriptedOpenAI } from '../helpers/scripted-openai';
import { cell, cliCall, expect, test } from './fixtures';

/** T019zh (shipped in test/fixtures/corpus): one llm_judge check, so its imported traces arrive judge pending. */
const TASK = 'T019zh_inventory_check';

async function seed(workspace: string): Promise<number[]> {
  await cliCall(workspace, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks', TASK)] });
  const ids: number[] = [];
  for (const i of [0, 1]) {
    const t = synthTrajectory(TASK, {
      finalText: `Inventory checked, run ${i}.`,
      keep: (x) => x !== 'inventory_create_order',
    });
    ids.push((await cliCall<{ id: number }>(workspace, 'trajectories.importTrace', { traceJsonl: writeTrace(t) })).id);
  }
  return ids;
}

let judge: ScriptedServer | null = null;
test.afterEach(async () => {
  await judge?.close();
  judge = null;
});

test.describe('Re-grade with the judge from the Trajectories page', () => {
  // Wide enough that the grid renders the Judge pending column (ag-grid leaves off-screen columns out of the DOM).
  test.use({ viewport: { width: 2600, height: 900 } });
  test.skip(!hasGoldens, 'needs the shipped Claw-Eval goldens');

  test('imported traces go from judge pending to an app score', async ({ app, server }) => {
    const ids = await seed(server.workspace);
    judge = await startScriptedOpenAI({ script: () => chat('{"score": 1, "reasoning": "orders checked"}') });
    await cliCall(server.workspace, 'endpoints.add', {
      name: 'judge',
      base_url: judge.baseUrl,
      model: 'judge-m',
      key_source: 'none',
    });

    await app.getByRole('button', { name: 'Trajectories' }).click();
    for (const id of ids) {
      await expect(cell(app, id, 'judge_pending')).toHaveText('yes');
      await expect(cell(app, id, 'score')).toHaveText('');
    }
    // No judge yet: the dialog says so and leads to Settings → Judge.
    await app.getByTestId('regrade-open').click();
    await expect(app.getByTestId('regrade-count')).toContainText('Re-grade 2 trajectories in the workspace');
    await expect(app.getByTestId('regrade-judge')).toContainText('No judge is set');
    await app.getByTestId('regrade-judge-settings').click();
    await app.getByTestId('judge-endpoint').selectOption('judge');
    await expect(app.getByTestId('judge-setting')).toContainText('model judge-m');

    await app.getByRole('button', { name: 'Trajectories' }).click();
    await app.getByTestId('regrade-open').click();
    await expect(app.getByTestId('regrade-judge')).toContainText('Judge: judge (model judge-m)');
    await app.getByTestId('regrade-start').click();
    const result = app.getByTestId('regrade-result');
    await expect(result).toContainText('Re-graded 2');
    await expect(result).toContainText('asked 2, cached 0, failed 0');
    await expect(result).toContainText('0 still judge pending');
    await app.getByRole('button', { name: 'Close', exact: true }).click();
    for (const id of ids) {
      await expect(cell(app, id, 'judge_pending')).toHaveText('no');
      await expect(cell(app, id, 'score')).toHaveText(/^\d\.\d{4}$/);
    }
    expect(judge.chatRequests()).toHaveLength(2);
  });
});
