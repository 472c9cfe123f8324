import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, expect, test } from './fixtures';

const tool = (name: string) => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: {} } },
});
const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } });

/** A τ-bench record without schemas that ends on its transfer call, and a prepared SFT row without a reward. */
function files() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-e2e-tau-'));
  const at = (name: string, text: string) => (fs.writeFileSync(path.join(dir, name), text), path.join(dir, name));
  const tau = [
    {
      task_id: 0,
      trial: 0,
      reward: 1.0,
      info: {},
      traj: [
        { role: 'system', content: '# Airline Agent Policy' },
        { role: 'user', content: 'I need a person.' },
        { role: 'assistant', content: null, tool_calls: [call('c1', 'get_user_details')] },
        { role: 'tool', tool_call_id: 'c1', name: 'get_user_details', content: '{}' },
        { role: 'assistant', content: null, tool_calls: [call('c2', 'transfer_to_human_agents')] },
        { role: 'tool', tool_call_id: 'c2', name: 'transfer_to_human_agents', content: 'Transfer successful' },
      ],
    },
  ];
  const sft = {
    messages: [
      { role: 'system', content: 'Help.' },
      { role: 'user', content: 'Hello?' },
      { role: 'assistant', tool_calls: [call('s1', 'get_user_details')] },
      { role: 'tool', tool_call_id: 's1', content: '{}' },
      { role: 'assistant', content: 'Hi!' },
    ],
    tools: [tool('get_user_details')],
  };
  return {
    tau: at('tau.json', JSON.stringify(tau)),
    tools: at('airline-tools.json', JSON.stringify([tool('get_user_details'), tool('transfer_to_human_agents')])),
    sft: at('prepared.jsonl', `${JSON.stringify(sft)}\n`),
  };
}

test('imports τ-bench runs with a tools file, and exports a reward-less SFT set only when told', async ({
  app,
  server,
}) => {
  const f = files();
  await app.goto(`${server.url}/#/trajectories`);
  await app.getByLabel('Trajectory files to import').fill(f.tau);
  await app.getByLabel('Tool schemas file').fill(f.tools);
  await app.getByTestId('trajectory-import').getByRole('button', { name: 'Import' }).click();
  const notice = app.getByTestId('trajectories-notice');
  await expect(notice).toContainText('Import done: 1 stored');
  await expect(notice).toContainText('tool schemas: 2 from airline-tools.json');
  await expect(app.getByTestId('status-rows')).toHaveText(/^1 trajector/);

  expect((await cli(server.workspace, ['trajectories', 'import', f.sft])).code).toBe(0);
  await app.getByRole('navigation').getByRole('button', { name: 'Export' }).click();
  await app.getByTestId('curation-notice').getByRole('button', { name: 'Include uncurated' }).click();
  const rejections = app.getByTestId('rejections');
  await expect(rejections.getByRole('row', { name: /reward missing/ })).toHaveCount(1);
  await expect(app.getByTestId('sft-counts')).toContainText('1 exported');
  // Explicitly: no reward required. The τ-bench run still passes its pool's threshold; the SFT row now passes too.
  await app.getByLabel('No reward required').check();
  await expect(rejections.getByRole('row', { name: /reward missing/ })).toHaveCount(0);
  await expect(app.getByTestId('sft-counts')).toContainText('1 exported without a reward');
});
