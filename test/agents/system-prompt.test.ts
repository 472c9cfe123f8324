import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildSystemPrompt,
  dumpsAscii,
  dumpsIndent,
  toolSpecs,
  UPSTREAM_PROMPT,
} from '../../src/main/core/agents/system-prompt';
import { checkSlot, generateOne } from '../../src/main/core/generation/procedural/generate';
import { PyFloat } from '../../src/main/core/py/pyjson';
import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { corpusExportTasks, hasCorpus } from '../helpers/corpus-tasks';
import { clawTaskIds, figure } from '../helpers/shared-data';
import { validTask } from '../validation/valid-task';

/**
 * Goldens written by Claw-Eval's own build_system_prompt (runner/system_prompt.py at 9365e1a, default
 * PromptConfig, the user_agent suffix appended as runner/loop.py does) — see fixtures/README.md.
 * Our own tasks: the full text. The corpus tasks T001–T044: only the sha256 of upstream's text
 * (the corpus stays outside the repository).
 */
const fixtures = path.join(__dirname, 'fixtures');
const golden = JSON.parse(fs.readFileSync(path.join(fixtures, 'system-prompts.upstream.json'), 'utf8')) as Record<
  string,
  string
>;
const hashes = JSON.parse(fs.readFileSync(path.join(fixtures, 'system-prompt-hashes.upstream.json'), 'utf8')) as Record<
  string,
  string
>;

function generated(id: number, language: 'en' | 'zh', scenario: 'multi_turn' | 'safety'): TaskSpec {
  const { slot } = checkSlot({
    id,
    services: ['helpdesk', 'gmail'],
    difficulty: 'hard',
    language,
    reference_date: '2026-05-02',
    scenario,
  });
  return generateOne(slot!, 11, 1);
}

describe("Claw-Eval's system prompt", () => {
  it('is byte-identical to upstream for a hand-written task and generated ones (zh multi-turn with suffix)', () => {
    const specs = [
      TaskSpec.parse(validTask()),
      generated(1, 'zh', 'multi_turn'),
      generated(2, 'en', 'multi_turn'),
      generated(3, 'en', 'safety'),
    ];
    for (const s of specs)
      expect(buildSystemPrompt(s, !!s.user_agent?.enabled, UPSTREAM_PROMPT), s.task_id).toBe(golden[s.task_id]);
    expect(Object.keys(golden)).toHaveLength(4);
    // The suffix is there only when a simulated user takes part.
    const mt = specs[1]!;
    expect(golden[mt.task_id]!.endsWith(`\n\n${mt.user_agent!.system_prompt_suffix}`)).toBe(true);
    expect(buildSystemPrompt(mt, false, UPSTREAM_PROMPT)).toBe(
      golden[mt.task_id]!.slice(0, -mt.user_agent!.system_prompt_suffix.length - 2),
    );
  });

  it.skipIf(!hasCorpus)('is byte-identical to upstream for every corpus task present (T001–T044 in ../shared)', () => {
    const tasks = corpusExportTasks();
    expect(tasks).toHaveLength(figure(44, () => clawTaskIds().length));
    for (const t of tasks) {
      const prompt = buildSystemPrompt(t.spec, !!t.spec.user_agent?.enabled, UPSTREAM_PROMPT);
      const ours = createHash('sha256').update(prompt).digest('hex');
      expect(ours, t.spec.task_id).toBe(hashes[t.spec.task_id]);
    }
  });

  it('lists "- None" and keeps the empty schema block (four newlines) when a task offers no tools', () => {
    const p = buildSystemPrompt({ tools: [], user_agent: undefined }, false, UPSTREAM_PROMPT);
    expect(p).toContain(
      '## Tooling\nTool availability (filtered by policy):\n' +
        'Tool names are case-sensitive. Call tools exactly as listed.\n- None\n\n\n\n## Tool Call Style',
    );
  });

  it('offers the tools in OpenAI form; an empty schema becomes the empty object schema', () => {
    const s = TaskSpec.parse({ ...validTask(), tools: [{ name: 'kb_search', description: 'Search' }] });
    expect(toolSpecs(s)).toEqual([
      {
        type: 'function',
        function: { name: 'kb_search', description: 'Search', parameters: { type: 'object', properties: {} } },
      },
    ]);
  });
});

describe('Python json.dumps layouts (values checked against CPython 3)', () => {
  it('json.dumps(v): ensure_ascii, ", " and ": ", floats as Python prints them', () => {
    expect(
      dumpsAscii({
        to: 'zhang@例子.cn',
        n: 3,
        x: new PyFloat(1),
        y: new PyFloat(1e-5),
        z: [true, null, 'a"b\n\u007f'],
        e: {},
      }),
    ).toBe(
      '{"to": "zhang@\\u4f8b\\u5b50.cn", "n": 3, "x": 1.0, "y": 1e-05, "z": [true, null, "a\\"b\\n\\u007f"], "e": {}}',
    );
    expect(dumpsAscii('😀')).toBe('"\\ud83d\\ude00"');
  });

  it('json.dumps(v, ensure_ascii=False, indent=2)', () => {
    expect(dumpsIndent({ a: { b: [1, new PyFloat(2.5), {}], c: [] }, d: '中文\t' })).toBe(
      '{\n  "a": {\n    "b": [\n      1,\n      2.5,\n      {}\n    ],\n    "c": []\n  },\n  "d": "中文\\t"\n}',
    );
  });
});
