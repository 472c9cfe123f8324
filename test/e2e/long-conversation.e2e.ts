import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { cliCall, expect, test } from './fixtures';

type Job = { jobId: string };

/** The message lies inside the conversation's scroll box as it is scrolled now (the box clips the rest). */
const shownInScroller = (app: Page, testId: string) =>
  app.evaluate((id) => {
    const box = document.querySelector('[data-testid=conversation-scroll]')!.getBoundingClientRect();
    const el = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
    return !!el && el.top >= box.top - 1 && el.top < box.bottom;
  }, testId);

/** A trajectory of 1 + 2 × 1,001 = 2,003 messages; message #k's text names k. */
function longConversationJsonl(turns = 1001): string {
  const messages: unknown[] = [{ role: 'system', content: 'You are a helpful agent.' }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: `question ${2 * i + 1}: how is order W${i} doing?` });
    messages.push({ role: 'assistant', content: `answer ${2 * i + 2}: order W${i} ships ${i % 7} days from now.` });
  }
  return `${JSON.stringify({ messages })}\n`;
}

/** Issue 21 item 5: long trajectories open with only the messages in view rendered; find and jump still work. */
test('a 2,003-message trajectory: few messages in the DOM, find jumps to the last one', async ({
  app,
  server,
}, testInfo) => {
  const file = testInfo.outputPath('long.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, longConversationJsonl());
  const imp = await cliCall<Job>(server.workspace, 'trajectories.import', { paths: [file], format: 'openai-jsonl' });
  await cliCall(server.workspace, 'jobs.wait', { id: imp.jobId, timeoutMs: 120_000 });
  const row = (await cliCall<{ rows: { id: number }[] }>(server.workspace, 'trajectories.list', {})).rows[0]!;

  await app.getByRole('button', { name: 'Trajectories' }).click();
  await app.locator(`.ag-row[row-id="${row.id}"] [col-id="task_id"]`).click();
  const conversation = app.getByTestId('conversation');
  await expect(conversation.locator('h3')).toHaveText('Conversation (2003 messages)');
  await expect(conversation.getByTestId('message-1')).toBeVisible();
  const rendered = await conversation.locator('[data-testid^="message-"]').count();
  expect(rendered).toBeLessThan(100);
  await expect(conversation.getByTestId('message-2002')).toHaveCount(0);

  // Find in the conversation reaches a message that was not rendered, and counts the matches.
  const find = conversation.getByLabel('Find in conversation');
  await find.fill('answer 2002:');
  await find.press('Enter');
  await expect(conversation.getByTestId('find-count')).toHaveText('1 of 1 (message #2002)');
  expect(await shownInScroller(app, 'message-2002')).toBe(true);
  await find.fill('order W1000 ');
  await find.press('Enter');
  await expect(conversation.getByTestId('find-count')).toHaveText('1 of 2 (message #2001)');
  await find.press('Enter');
  await expect(conversation.getByTestId('find-count')).toHaveText('2 of 2 (message #2002)');
});
