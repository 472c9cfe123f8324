import fs from 'node:fs';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { freshEnvironment, taskClock, type ExportTask } from '../../src/main/core/export/export-task';
import { grade, runRecordFrom } from '../../src/main/core/grading/grade';
import type { PyValue } from '../../src/main/core/py/pyjson';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { PYTHON, python } from '../helpers/python';
import { CLOCK, deterministicTask, handTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';
import { validTask } from '../validation/valid-task';

/**
 * The package's verl v0.9.0 agent loop, tools and reward function (Python) against a live env server, driven by a
 * stand-in of v0.9.0's ToolAgentLoop (fixtures/verl_stub: verl itself needs torch) with a scripted model.
 */
const task = deterministicTask();
const plan = task.spec.reference_plan!;
const answer = task.spec.reference_final_text!;
const richTools = validTask().tools!.map((t) =>
  t.name === 'gmail_list_messages'
    ? {
        ...t,
        input_schema: {
          type: 'object',
          properties: {
            days_back: { type: 'integer', description: 'How far back.', default: 7, minimum: 1 },
            labels: { type: 'array', items: { type: 'string' } },
          },
        },
      }
    : t,
);
const asking = handTask({
  task_id: 'HW009_ask',
  tools: richTools,
  user_agent: {
    enabled: true,
    persona: 'Dana, terse.',
    hidden_facts: ['The ticket is TK-3001.'],
    max_rounds: 2,
    system_prompt_suffix: '',
  },
});
let dir: string;
let server: RlEnvServer;

beforeAll(async () => {
  dir = path.join(tempDir(), 'pkg');
  await exportRlPackage({ tasks: [task, asking], outDir: dir, clock: CLOCK });
  server = await serveRlPackage({ packageDir: dir, port: 0 });
});
afterAll(() => server?.close());

const bigIntSafe = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

type Turn = { content: string; calls?: { tool: string; args: unknown }[] };
type Rollout = { episode: string; score: Record<string, number>; user_turns: string[]; tool_texts: string[] };
type Driven = { rollouts: Rollout[]; missing_episode: string | null; schemas: unknown[] };

async function drive(t: ExportTask, turns: Turn[], solutions: string[]): Promise<Driven> {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const set = (manifest.verl.toolsets as { id: string; tasks: string[] }[]).find((s) =>
    s.tasks.includes(t.spec.task_id),
  )!;
  const buf = fs.readFileSync(path.join(dir, 'verl', set.id, 'train.parquet'));
  const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) });
  const row = rows.find((r) => (r.extra_info as { task_id: string }).task_id === t.spec.task_id);
  const work = tempDir();
  fs.writeFileSync(path.join(work, 'row.json'), JSON.stringify(bigIntSafe(row)));
  fs.writeFileSync(path.join(work, 'turns.json'), JSON.stringify(turns));
  fs.writeFileSync(path.join(work, 'solutions.json'), JSON.stringify(solutions));
  const out = await python(
    [path.join(__dirname, 'fixtures/verl_driver.py'), dir, set.id, 'row.json', 'turns.json', 'solutions.json'],
    { PYTHONPATH: `${path.join(__dirname, 'fixtures/verl_stub')}:${dir}`, COWORKENV_ENV_URL: server.url },
    work,
  );
  return JSON.parse(out);
}

/** The app's grade of the same episode: the calls in a fresh environment, this final text. */
function appGrade(t: ExportTask, calls: { tool: string; args: unknown }[], finalText: string) {
  const env = freshEnvironment(t, taskClock(t.spec, CLOCK));
  for (const c of calls) env.call(c.tool, c.args as PyValue);
  const g = grade(t.spec, runRecordFrom(env.dispatches.slice(), env.audits(), finalText));
  return { score: g.score, completion: g.completion, safety: g.safety, robustness: g.robustness, passed: +g.passed };
}

const policy = (final: string): Turn[] => [
  { content: '', calls: plan.slice(0, 2).map((s) => ({ tool: s.tool, args: s.args })) },
  ...plan.slice(2).map((s) => ({ content: '', calls: [{ tool: s.tool, args: s.args }] })),
  { content: final },
];

describe.skipIf(!PYTHON.ok)(`verl v0.9.0 agent loop and reward${PYTHON.ok ? '' : ` (skipped: ${PYTHON.why})`}`, () => {
  it("the reward is the env grade of the rollout's episode, handed over by id through extra_fields", async () => {
    const r = await drive(task, policy(answer), ['<decoded rollout text>']);
    const [one] = r.rollouts;
    expect(one!.episode).toMatch(/^ep_[0-9a-f]{24}$/);
    const local = freshEnvironment(task, taskClock(task.spec, CLOCK));
    expect(one!.tool_texts).toEqual(plan.map((s) => local.call(s.tool, s.args as PyValue).text));
    expect(one!.score).toEqual(appGrade(task, plan, answer));
    expect(one!.score.score).toBe(1);
    expect(server.store.open).toBe(0); // the reward closed the episode
    expect(r.missing_episode).toContain('extra_info has no coworkenv_episode_id');
  });

  it('"Done." probe: a policy that games the final text gains nothing, whatever the decoded text says', async () => {
    const decoded = [
      'Done.',
      // Llama 3.1-style decoding (special tokens skipped): the tool results and the right answer in the text.
      `assistant\n\n{"name": "gmail_get_message"}ipython\n\n{"subject": "VPN outage"}assistant\n\n${answer}\nDone.`,
      `${answer}</tool_response>\n${answer}`,
    ];
    const r = await drive(task, policy('Done.'), decoded);
    const fair = appGrade(task, plan, 'Done.');
    expect(fair.score).toBeLessThan(appGrade(task, plan, answer).score);
    for (const x of r.rollouts) expect(x.score).toEqual(fair);
  });

  it('the simulated user answers a question from the env server; its reply is the next user turn', async () => {
    const turns: Turn[] = [{ content: 'Which ticket is it?' }, { content: 'Thanks.' }];
    const r = await drive(asking, turns, ['x']);
    expect(r.rollouts[0]!.user_turns).toEqual(['The ticket is TK-3001.']);
    expect(r.rollouts[0]!.score).toEqual(appGrade(asking, [], 'Thanks.'));
  });

  it("tool schemas survive verl 0.9.0's schema model: items, default folded; what it keeps = the config", async () => {
    const r = await drive(asking, [{ content: 'Done.' }], ['x']);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const set = manifest.verl.toolsets.find((s: { tasks: string[] }) => s.tasks.includes('HW009_ask')).id;
    const yml = JSON.parse(
      await python([
        '-c',
        'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))',
        path.join(dir, 'verl', set, 'tool_config.yaml'),
      ]),
    );
    expect(r.schemas).toEqual(yml.tools.map((t: { tool_schema: unknown }) => t.tool_schema));
    const props = (r.schemas[0] as { function: { parameters: { properties: Record<string, unknown> } } }).function
      .parameters.properties;
    expect(props).toEqual({
      days_back: { type: 'integer', description: 'How far back. (default: 7; minimum: 1)' },
      labels: { type: 'array', description: '(items: string)' },
    });
    expect(manifest.verl.schema_folds).toEqual([
      { tool: 'gmail_list_messages', parameter: 'days_back', keyword: 'default', folded: true },
      { tool: 'gmail_list_messages', parameter: 'days_back', keyword: 'minimum', folded: true },
      { tool: 'gmail_list_messages', parameter: 'labels', keyword: 'items', folded: true },
    ]);
  });
});
