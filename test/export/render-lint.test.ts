import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/main/core/agents/agent-loop';
import { referenceAgent } from '../../src/main/core/agents/reference-agent';
import { exportSft, lintExport, type SftRecord } from '../../src/main/core/export/sft';
import { chatInputOf } from '../../src/main/core/export/sft/render/chat-input';
import { renderChat } from '../../src/main/core/export/sft/render/chat-templates';
import { RenderCheck } from '../../src/main/core/export/sft/render/render-check';
import { tokenCounter } from '../../src/main/core/export/sft/render/token-counter';
import type { SftDialect, SftReport } from '../../src/shared/contract/entities/export';
import { callOf, LOOKUP_TOOL, say, sys, trajectory, user } from './build';
import { CLOCK, deterministicTask } from '../helpers/rollouts';
import { clawTrajectories, hasTauCorpora, recordOf, tauBenchTrajectories } from '../helpers/sft-corpus';
import { FULL_DATA } from '../helpers/shared-data';
import { tempDir } from '../helpers/temp';
import { runCliCaptured } from '../helpers/transports';

const REPO = path.resolve(__dirname, '../..');
const OPEN = { unscored: { minReward: null, converter: false }, mixed: { minReward: null, converter: false } };

function exported(records: SftRecord[], dialect: SftDialect, options = {}) {
  const out = path.join(tempDir(), dialect);
  const r = exportSft({ records, dialect, outDir: out, options: { pools: OPEN, ...options } });
  return { out, report: r.report as SftReport };
}

/** One turn with two calls at once, answered, then a reply. */
function parallel() {
  const calls = [callOf('c1', { id: 'A' }), callOf('c2', { id: 'B' })];
  return recordOf(
    trajectory('parallel', [
      sys('You look records up.'),
      user('Look up A and B.'),
      { role: 'assistant', content: null, reasoning: null, tool_calls: calls },
      { role: 'tool', tool_call_id: 'c1', name: 'lookup', content: '{"id": "A"}', is_error: false },
      { role: 'tool', tool_call_id: 'c2', name: 'lookup', content: '{"id": "B"}', is_error: false },
      say('A and B are there.'),
    ]),
    { pool: 'unscored' },
  );
}

describe('rendering exported records with real chat templates', () => {
  it('reports a record with parallel calls as refused by Llama 3.1, with its reason; Qwen2.5 renders it', () => {
    const llama = exported([parallel()], 'trl', { chatTemplate: 'llama3.1' }).report.render!;
    expect(llama).toMatchObject({ template: 'llama3.1', rendered: 0, failed: 1 });
    expect(llama.failures).toEqual({
      'This model only supports single tool-calls at once!': { count: 1, examples: ['parallel'] },
    });
    const lint = JSON.parse(
      fs.readFileSync(
        path.join(
          exported([parallel()], 'trl', {
            chatTemplate: 'llama3.1',
          }).out,
          'lint.json',
        ),
        'utf8',
      ),
    ) as { findings: { code: string; message: string }[] };
    expect(lint.findings).toContainEqual(
      expect.objectContaining({
        code: 'template_render_failed',
        message: expect.stringContaining('single tool-calls'),
      }),
    );
    expect(exported([parallel()], 'openai', { chatTemplate: 'qwen2.5' }).report.render).toMatchObject({
      rendered: 1,
      failed: 0,
    });
  });

  it('puts each tool schema once in the rendered text of a run exported for TRL', async () => {
    const task = deterministicTask();
    const e = await runEpisode({ spec: task.spec, fixtures: [], agent: referenceAgent(), clock: CLOCK });
    const { out } = exported([recordOf({ ...e.trajectory, reward: 1 }, { pool: 'unscored' })], 'trl');
    const row = JSON.parse(fs.readFileSync(path.join(out, 'train.jsonl'), 'utf8'));
    for (const id of ['qwen2.5', 'qwen3', 'llama3.1'] as const) {
      const r = renderChat(id, chatInputOf('trl', row));
      if (!r.ok) throw new Error(r.why);
      // Every schema holds "properties": as many in the text as in the tools list means each schema once.
      const count = (text: string) => text.split('"properties"').length - 1;
      expect(count(r.text), id).toBe(count(JSON.stringify(row.tools)));
      expect(count(row.messages[0].content), id).toBe(0);
    }
  });

  it('counts tokens exactly as the whole tokenizer does, pieces cached or not', () => {
    const dir = path.join(REPO, 'resources/tokenizers/qwen2.5');
    const json = JSON.parse(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'tokenizer.json.br'))).toString());
    const whole = new Tokenizer(json, JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')));
    expect(whole.encode('Hello world', { add_special_tokens: false }).ids).toEqual([9707, 1879]);
    const row = { messages: [{ role: 'user', content: 'Look up A.' }], tools: [LOOKUP_TOOL] };
    const r = renderChat('qwen2.5', chatInputOf('trl', row));
    if (!r.ok) throw new Error(r.why);
    const want = whole.encode(r.text, { add_special_tokens: false }).ids.length;
    expect(tokenCounter('qwen2.5').count(r.text)).toBe(want);
    expect(tokenCounter('qwen2.5').count(r.text)).toBe(want);
    // Llama 3.1: the template writes <|begin_of_text|> itself; it is one token.
    expect(tokenCounter('llama3.1').count('<|begin_of_text|>Hello world')).toBe(3);
  });

  it('renders the shipped Claw-Eval runs and re-lints the written export to the same summary', () => {
    // The subset's traces call tools their task no longer lists: exported without schemas (TRL renders those).
    const records = clawTrajectories().map((t) => recordOf({ ...t, tools: [] }, { pool: 'unscored' }));
    expect(records.length).toBeGreaterThan(0);
    const { out, report } = exported(records, 'trl', { chatTemplate: 'qwen2.5', requireToolSchemas: false });
    const s = report.render!;
    expect(report.rejections).toEqual({});
    expect(report.exported).toBe(records.length);
    expect(s.rendered + s.failed).toBe(report.exported);
    expect(s.lengths!.max).toBeGreaterThan(0);
    const again = new RenderCheck('trl', 'qwen2.5', { unit: 'tokens', max: 1024 });
    lintExport(out, again);
    expect(again.summary()).toEqual(s);
  });

  // The 200-record figure is the full τ-bench file's; the shipped subset holds a slice of it.
  it.skipIf(!hasTauCorpora || !FULL_DATA)(
    'reports all 200 τ-bench records over 1,024 tokens; a character budget is its own',
    () => {
      const records = tauBenchTrajectories().map((r) => recordOf(r.t, { taskId: r.taskId, pool: 'unscored' }));
      const tokens = exported(records, 'openai').report.render!;
      expect(tokens).toMatchObject({ template: 'qwen2.5', rendered: 200, failed: 0, overBudget: { count: 200 } });
      expect(tokens.lengths!.min).toBeGreaterThan(1024);
      const chars = exported(records, 'openai', { lengthBudget: { unit: 'chars', max: 40_000 } }).report.render!;
      expect(chars.budget).toEqual({ unit: 'chars', max: 40_000 });
      expect(chars.lengths!.median).toBeGreaterThan(tokens.lengths!.median);
      expect(chars.overBudget.count).toBeLessThan(200);
    },
    120_000,
  );

  it('export lint renders with the template named, budget in tokens or characters; bad flags: usage', async () => {
    const { out } = exported([parallel()], 'trl');
    const ws = path.join(tempDir(), 'unused.sqlite');
    const llama = await runCliCaptured(['--workspace', ws, 'export', 'lint', out, '--template', 'llama3.1']);
    expect(llama.code).toBe(0);
    expect(llama.stdout).toContain('template_render_failed: the llama3.1 template: This model only supports single');
    expect(llama.stdout).toContain('rendered with llama3.1: 0 records, 1 refused (1 × This model only supports');
    const qwen = await runCliCaptured(['--workspace', ws, 'export', 'lint', out, '--max-chars', '10']);
    expect(qwen.stdout).toMatch(
      /rendered with qwen3: 1 records, 0 refused; characters: median \d+.*; 1 over 10 characters/,
    );
    const bad = await runCliCaptured([
      '--workspace',
      ws,
      'export',
      'lint',
      out,
      '--max-tokens',
      '5',
      '--max-chars',
      '9',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('give --max-tokens or --max-chars, not both');
  });
});
