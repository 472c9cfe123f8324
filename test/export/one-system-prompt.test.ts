import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/main/core/agents/agent-loop';
import { referenceAgent } from '../../src/main/core/agents/reference-agent';
import {
  buildSystemPrompt,
  dumpsIndent,
  trainingPromptOf,
  UPSTREAM_PROMPT,
} from '../../src/main/core/agents/system-prompt';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { exportSft } from '../../src/main/core/export/sft';
import type { PyValue } from '../../src/main/core/py/pyjson';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { generatedTasks } from '../helpers/generated-tasks';
import { CLOCK, deterministicTask } from '../helpers/rollouts';
import { recordOf } from '../helpers/sft-corpus';
import { tempDir } from '../helpers/temp';
import { validTask } from '../validation/valid-task';

const task = deterministicTask();
type Row = { messages: { role: string; content?: string }[] };

async function run(): Promise<Trajectory> {
  const e = await runEpisode({ spec: task.spec, fixtures: [], agent: referenceAgent(), clock: CLOCK });
  return { ...e.trajectory, reward: 1 };
}

function sftSystem(t: Trajectory, options = {}) {
  const out = path.join(tempDir(), 'sft');
  exportSft({ records: [recordOf(t, { reward: 1 })], dialect: 'trl', outDir: out, options });
  const row = JSON.parse(fs.readFileSync(path.join(out, 'train.jsonl'), 'utf8')) as Row;
  const lint = JSON.parse(fs.readFileSync(path.join(out, 'lint.json'), 'utf8')) as { findings: { code: string }[] };
  return { system: row.messages[0]!.content!, codes: lint.findings.map((f) => f.code) };
}

async function rlSystem() {
  const out = path.join(tempDir(), 'rl');
  await exportRlPackage({ tasks: [task], outDir: out, clock: CLOCK });
  const line = fs.readFileSync(path.join(out, 'tasks.jsonl'), 'utf8').split('\n')[0]!;
  return (JSON.parse(line) as { system_prompt: string }).system_prompt;
}

describe('one system prompt for runs, SFT and RL', () => {
  it('is the same text for the same task: the run records it, SFT exports it, the RL package serves it', async () => {
    const t = await run();
    const recorded = t.messages[0]!;
    expect(recorded).toMatchObject({ role: 'system', content: buildSystemPrompt(task.spec, false) });
    const sft = sftSystem(t);
    expect(sft.system).toBe(recorded.content);
    expect(await rlSystem()).toBe(sft.system);
    expect(sft.codes).not.toContain('system_prompt_rebuilt');
  });

  it('carries no schema and does not forbid the <tool_call> markup that Qwen templates render', () => {
    const p = buildSystemPrompt(task.spec, false);
    expect(p).not.toContain('## Tool Schemas');
    expect(p).not.toContain('<tool_call>');
    for (const tool of task.spec.tools) {
      expect(p).toContain(`- ${tool.name}: ${tool.description}`);
      expect(p).not.toContain(dumpsIndent(tool.input_schema as PyValue));
    }
  });

  it("rewrites a prompt recorded in upstream's form to the same text, counted; as-recorded keeps it", async () => {
    const t = await run();
    const upstream = buildSystemPrompt(task.spec, false, UPSTREAM_PROMPT);
    const legacy = { ...t, messages: [{ role: 'system' as const, content: upstream }, ...t.messages.slice(1)] };
    const sft = sftSystem(legacy);
    expect(sft.system).toBe(buildSystemPrompt(task.spec, false));
    expect(sft.codes).toContain('system_prompt_rebuilt');
    expect(sftSystem(legacy, { systemPrompt: 'as-recorded' }).system).toBe(upstream);
  });

  it('maps every upstream prompt to the training one (with and without tools, user suffix, generated tasks)', () => {
    const specs = [task.spec, TaskSpec.parse({ ...validTask(), tools: [] }), ...generatedTasks(6)];
    for (const s of specs)
      for (const withUser of [false, true]) {
        const want = buildSystemPrompt(s, withUser);
        expect(trainingPromptOf(buildSystemPrompt(s, withUser, UPSTREAM_PROMPT)), s.task_id).toBe(want);
        expect(trainingPromptOf(want)).toBeNull();
      }
    expect(trainingPromptOf('You are a helpful airline agent.')).toBeNull();
  });
});
