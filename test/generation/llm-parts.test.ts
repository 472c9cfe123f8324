import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, readHandle, writeHandle } from '../../src/main/core/db/sqlite';
import { endpointsRepo } from '../../src/main/core/endpoints/endpoints.repo';
import { AUDIT_HINTS } from '../../src/main/core/generation/llm/audit-hints';
import { EXAMPLE_ANSWER } from '../../src/main/core/generation/llm/example-task';
import { generateWithLlm } from '../../src/main/core/generation/llm/generate-llm';
import { lineageWriter } from '../../src/main/core/generation/llm/lineage.repo';
import { normaliseCandidate } from '../../src/main/core/generation/llm/normalise';
import { parseAnswer } from '../../src/main/core/generation/llm/parse-answer';
import { SERVICE_REGISTRY } from '../../src/main/core/services/registry';
import { catalogTool, TOOL_CATALOG } from '../../src/main/core/services/tool-catalog';
import { validate } from '../../src/main/core/validation/validate';
import { ok } from '../helpers/call';
import { chat, startScriptedOpenAI, type ScriptedServer } from '../helpers/scripted-openai';
import { createTestCore } from '../helpers/test-core';
import { answer, brokenWeights, SLOT } from './llm-fixtures';

const PROV = { generator: 'llm' as const, endpoint: 'e', model: 'm', seed: 1, index: 0 };

describe('parseAnswer: the JSON object in a model answer', () => {
  const obj = { a: 1, s: 'brace } and "quote" inside' };
  it.each([
    ['bare JSON', JSON.stringify(obj)],
    ['a fenced block after prose', `Sure!\n\`\`\`json\n${JSON.stringify(obj, null, 2)}\n\`\`\`\nDone.`],
    ['an unlabelled fence', `\`\`\`\n${JSON.stringify(obj)}\n\`\`\``],
    ['inline in prose', `The task is ${JSON.stringify(obj)} — enjoy.`],
    ['after a think block holding draft JSON', `<think>maybe {"a": 0}</think>\n${JSON.stringify(obj)}`],
    ['after a broken object', `{"a": oops} then ${JSON.stringify(obj)}`],
  ])('%s', (_name, text) => {
    expect(parseAnswer(text)).toEqual({ ok: true, value: obj });
  });
  it('no object: says whether it saw braces at all; arrays and empty answers are refused', () => {
    expect(parseAnswer('no json here')).toMatchObject({ ok: false, reason: expect.stringContaining('not JSON') });
    expect(parseAnswer('{"a": 1')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no parseable JSON object'),
    });
    expect(parseAnswer('[1, 2]').ok).toBe(false);
    expect(parseAnswer('   ')).toEqual({ ok: false, reason: 'the answer is empty' });
    expect(parseAnswer(null).ok).toBe(false);
  });
});

describe('what the model is shown', () => {
  it('the shipped example passes every validator once normalised (the model never sees a rejected example)', () => {
    const v = validate(normaliseCandidate(EXAMPLE_ANSWER as never, SLOT, 'llm_s7_1_00000', PROV));
    expect(v.verdicts.filter((x) => x.status === 'fail')).toEqual([]);
    expect(v.valid).toBe(true);
  });

  it('the audit hints name real write routes and their services’ action keys; each audited write route has one', () => {
    for (const [route, hint] of Object.entries(AUDIT_HINTS)) {
      const tool = TOOL_CATALOG.find((t) => t.route === route);
      expect(tool, route).toBeDefined();
      expect(tool!.writes).toBe(true);
      expect(SERVICE_REGISTRY.get(tool!.service)!.actionKeys, route).toContain(hint.key);
    }
    const hinted = new Set(Object.values(AUDIT_HINTS).map((h) => h.key));
    for (const id of new Set(TOOL_CATALOG.map((t) => t.service)))
      for (const key of SERVICE_REGISTRY.get(id)!.actionKeys) expect(hinted.has(key), `${id}.${key}`).toBe(true);
  });

  it('normalising: the slot wins, catalog tools get their own schema in the task language, unknown tools stay', () => {
    const zh = { ...SLOT, language: 'zh' as const };
    const spec = normaliseCandidate(
      answer({
        task_id: 'mine',
        language: 'en',
        tools: ['gmail_get_message', { name: 'gmail_get_message' }, 'made_up_tool'],
      }),
      zh,
      'llm_s7_1_00003',
      PROV,
    ) as {
      task_id: string;
      language: string;
      tools: { name: string; description?: string }[];
      tool_endpoints: unknown[];
      prompt: { language: string };
    };
    expect(spec.task_id).toBe('llm_s7_1_00003');
    expect(spec.prompt.language).toBe('zh');
    expect(spec.tools.map((t) => t.name)).toEqual(['gmail_get_message', 'made_up_tool']);
    expect(spec.tools[0]!.description).toBe(catalogTool('gmail_get_message')!.zh.description);
    expect(spec.tool_endpoints).toEqual([
      { tool_name: 'gmail_get_message', url: 'http://localhost:9100/gmail/messages/get', method: 'POST' },
    ]);
    const v = validate(spec);
    expect(
      v.verdicts
        .find((x) => x.validator === 'tool_constraints')!
        .messages.map((m) => m.message)
        .join(' '),
    ).toContain('made_up_tool');
  });
});

describe('lineage: kept in the workspace, answered by tasks.lineage, no key', () => {
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('a repaired task’s two rounds with prompts, answers, verdicts, diff, endpoint, model, tokens', async () => {
    const KEY = 'sk-lineage-5e4d3c2b1a09f8e7d6c5';
    const srv = await startScriptedOpenAI({
      script: [chat(JSON.stringify(brokenWeights())), chat(JSON.stringify(answer()))],
      requireKey: KEY,
    });
    servers.push(srv);
    const { core, workspacePath } = createTestCore({ env: { LINEAGE_KEY: KEY } });
    await ok(core, 'endpoints.add', {
      name: 'ep',
      base_url: srv.baseUrl,
      model: 'test-model',
      key_source: 'env',
      key_env: 'LINEAGE_KEY',
    });
    // What the generation job does in its worker: its own connection, a client for the endpoint, a batch write.
    const db = openDb(workspacePath);
    try {
      const row = endpointsRepo(readHandle(db)).get('ep')!;
      const report = await generateWithLlm(SLOT, {
        endpoint: row,
        keys: { secrets: null, env: { LINEAGE_KEY: KEY } },
        seed: 3,
        count: 1,
      });
      const noKey = await generateWithLlm(SLOT, { endpoint: row, keys: { secrets: null, env: {} }, seed: 3, count: 1 });
      expect(noKey).toMatchObject({
        outcomes: [],
        stopped: expect.stringContaining('set the environment variable LINEAGE_KEY'),
      });
      db.transaction(() => lineageWriter(writeHandle(db)).save(report.outcomes[0]!))();
    } finally {
      db.close();
    }
    const l = await ok(core, 'tasks.lineage', { taskId: 'llm_s7_3_00000' });
    expect(l.outcome).toBe('repaired');
    expect(l.rounds.map((r) => [r.round, r.kind, r.endpoint, r.model, r.prompt_tokens])).toEqual([
      [1, 'generate', 'ep', 'test-model', 50],
      [2, 'repair', 'ep', 'test-model', 50],
    ]);
    expect(l.rounds[0]!.prompt.map((m) => m.role)).toEqual(['system', 'user']);
    expect(l.rounds[1]!.prompt.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(l.rounds[0]!.verdicts!.find((v) => v.validator === 'weights')!.status).toBe('fail');
    expect(l.rounds[1]!.verdicts!.every((v) => v.status !== 'fail')).toBe(true);
    expect(l.rounds[1]!.diff).toContain('+++ round 2');
    expect(await ok(core, 'tasks.lineage', { taskId: 'T001_other' })).toEqual({
      taskId: 'T001_other',
      outcome: null,
      rounds: [],
    });
    expect(srv.chatRequests().every((r) => r.headers.authorization === `Bearer ${KEY}` && !r.raw.includes(KEY))).toBe(
      true,
    );
    await core.close();
    expect(fs.readFileSync(workspacePath).toString('latin1')).not.toContain(KEY);
  });
});
