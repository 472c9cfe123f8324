import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSft, type SftRecord } from '../../src/main/core/export/sft';
import { DIALECTS } from '../../src/main/core/export/sft/dialects';
import { recordOf, tau2SftRows, tau2Trajectories } from '../helpers/sft-corpus';
import { figure } from '../helpers/shared-data';
import { tempDir } from '../helpers/temp';
import {
  checkManifestHashes,
  corporaPresent,
  corpusRecords,
  jsonlLines,
  type ManifestJson,
  OPEN_POOLS,
  readJson,
  SKIP_REASON,
  sha256,
} from './corpus-records';

type Obj = Record<string, unknown>;
type Msg = Obj & { role: string; content?: unknown; tool_calls?: Obj[]; tool_call_id?: string; name?: string };

/** Exports the corpora in one dialect and reads the files back with JSON.parse (an independent reader). */
function exportCorpora(dialect: 'trl' | 'openai' | 'llamafactory', records: SftRecord[], options = {}) {
  const out = path.join(tempDir(), dialect);
  const res = exportSft({ records, dialect, outDir: out, options: { pools: OPEN_POOLS, ...options } });
  const manifest = readJson<ManifestJson>(path.join(out, 'manifest.json'));
  const file = manifest.files[0]!.path;
  const lines = jsonlLines(path.join(out, file));
  return { out, res, manifest, lines, rows: lines.map((l) => JSON.parse(l) as Obj) };
}

/**
 * Tool-call ids matched: each tool message answers the next call of the nearest assistant batch, every call answered
 * before the next turn. The last turn's calls end the row unanswered where the dialect ends on the assistant.
 */
function checkIdsMatched(messages: Msg[], nameRule: 'required' | 'absent', lastAnswered = true) {
  let pending: Obj[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const c = pending.shift()!;
      expect(c, 'a tool message answers a pending call').toBeDefined();
      expect(m.tool_call_id).toBe(c.id);
      if (nameRule === 'required') expect(m.name).toBe((c.function as Obj).name);
      else expect(m).not.toHaveProperty('name');
      continue;
    }
    expect(pending, 'every call is answered before the next turn').toEqual([]);
    pending = m.role === 'assistant' ? [...(m.tool_calls ?? [])] : [];
  }
  if (lastAnswered) expect(pending).toEqual([]);
}

describe.skipIf(!corporaPresent)(
  `JSONL dialects on the corpora${corporaPresent ? '' : ` (skipped: ${SKIP_REASON})`}`,
  () => {
    let records: SftRecord[];
    beforeAll(() => {
      records = corpusRecords();
    });

    it('every file, line and record hash in the manifest matches what is on disk', () => {
      const { out, manifest, lines, res } = exportCorpora('trl', records);
      checkManifestHashes(out, manifest);
      expect(manifest.records.map((r) => r.sha256)).toEqual(lines.map((l) => sha256(l)));
      expect(manifest.records.map((r) => r.index)).toEqual(lines.map((_, i) => i));
      expect(res.report.exported).toBe(lines.length);
      expect(res.report.exported + res.report.rejected).toBe(records.length);
      // The Claw-Eval goldens probe tools their task.yaml does not offer: those runs cannot be trained on.
      expect(res.report.rejections.unknown_tool!.count).toBeGreaterThan(0);
      expect(manifest.records[0]!.lineage).toEqual({ trajectoryId: manifest.records[0]!.trajectoryId });
    });

    it('TRL: object arguments equal to the raw strings, named tool messages with matched ids, tools as a list', () => {
      const { rows, manifest } = exportCorpora('trl', records);
      const byId = new Map(records.map((r) => [r.recordId, r]));
      let calls = 0;
      rows.forEach((row, i) => {
        expect(Object.keys(row).sort()).toEqual(['messages', 'tools']);
        const messages = row.messages as Msg[];
        expect(['system', 'user', 'assistant']).toContain(messages[0]!.role);
        // The agent's last turn ends the row, with the results of its calls when it made some.
        const last = messages.findLastIndex((m) => m.role === 'assistant');
        expect(messages.slice(last + 1).every((m) => m.role === 'tool')).toBe(true);
        messages.forEach((m, j) => {
          expect(['system', 'user', 'assistant', 'tool']).toContain(m.role);
          if (m.role === 'system') expect(j).toBe(0);
        });
        const toolNames = new Set((row.tools as Obj[]).map((t) => (t.function as Obj).name));
        const rec = byId.get(manifest.records[i]!.recordId)!;
        const source = (rec.trajectory as { messages: Msg[] }).messages;
        for (const m of messages)
          for (const c of m.tool_calls ?? []) {
            calls++;
            const fn = c.function as { name: string; arguments: unknown };
            expect(typeof fn.arguments === 'object' && fn.arguments && !Array.isArray(fn.arguments)).toBe(true);
            expect(toolNames.has(fn.name)).toBe(true);
            const raw = source.flatMap((s) => s.tool_calls ?? []).find((s) => s.id === c.id)!;
            expect(fn.arguments).toEqual(JSON.parse((raw.function as { arguments: string }).arguments));
          }
        checkIdsMatched(messages, 'required');
      });
      // Many calls reached the file: over 500 on the full corpora, more than one a row on the shipped subset.
      expect(calls).toBeGreaterThan(figure(500, () => rows.length));
    });

    it('OpenAI: verbatim string arguments, only documented keys, no tool names, per-row parallel_tool_calls', () => {
      const { rows } = exportCorpora('openai', records);
      const keys: Record<string, string[]> = {
        system: ['content', 'role'],
        user: ['content', 'role'],
        assistant: ['content', 'role', 'tool_calls', 'weight'],
        tool: ['content', 'role', 'tool_call_id'],
      };
      let parallelRows = 0;
      for (const row of rows) {
        const messages = row.messages as Msg[];
        for (const m of messages) {
          for (const k of Object.keys(m)) expect(keys[m.role]).toContain(k);
          for (const c of m.tool_calls ?? []) {
            const args = (c.function as Obj).arguments;
            expect(typeof args).toBe('string');
            expect(typeof JSON.parse(args as string)).toBe('object');
            expect(c.type).toBe('function');
            expect(typeof c.id).toBe('string');
          }
          if (m.role === 'assistant' && m.tool_calls?.length && m.content === undefined)
            expect(m).not.toHaveProperty('content');
        }
        expect(messages.at(-1)!.role).toBe('assistant');
        checkIdsMatched(messages, 'absent', false);
        const parallel = messages.some((m) => (m.tool_calls?.length ?? 0) > 1);
        if (parallel) {
          parallelRows++;
          expect(row.parallel_tool_calls).toBe(true);
        }
      }
      expect(parallelRows).toBeGreaterThan(0);
    });

    it('OpenAI: the τ² OpenAI-FT file exported again reproduces every line, up to key order', () => {
      const sft = tau2SftRows();
      const recs = sft.map((r) => recordOf(r.t, { pool: 'unscored' }));
      const { rows } = exportCorpora('openai', recs);
      expect(rows).toHaveLength(sft.length);
      rows.forEach((row, i) => expect(row).toEqual(JSON.parse(sft[i]!.line)));
    });

    it('LLaMA-Factory: strict alternation, even count, calls then observations, object arguments, dataset_info', () => {
      const { out, rows, manifest, res } = exportCorpora('llamafactory', records);
      expect(manifest.files.map((f) => f.path)).toEqual([
        'coworkenv_sft.jsonl',
        'rejections.jsonl',
        'dataset_info.json',
        'lint.json',
      ]);
      const info = readJson<Obj>(path.join(out, 'dataset_info.json'));
      expect(info).toEqual({
        coworkenv_sft: expect.objectContaining({
          file_name: 'coworkenv_sft.jsonl',
          formatting: 'sharegpt',
          columns: { messages: 'conversations', system: 'system', tools: 'tools' },
        }),
      });
      let parallel = 0;
      for (const row of rows) {
        expect(typeof row.system).toBe('string');
        expect(typeof row.tools).toBe('string');
        const tools = row.tools ? (JSON.parse(row.tools as string) as Obj[]) : [];
        const names = new Set(tools.map((t) => (t.function as Obj).name));
        // The default formatter reads only top-level properties: no $defs left.
        expect(row.tools).not.toContain('$defs');
        const conv = row.conversations as { from: string; value: string }[];
        expect(conv.length % 2).toBe(0);
        conv.forEach((t, i) => {
          expect(i % 2 === 0 ? ['human', 'observation'] : ['gpt', 'function_call']).toContain(t.from);
          expect(typeof t.value).toBe('string');
          if (t.from !== 'function_call') return;
          // A call ending the conversation has no observation (its result is left out, counted).
          if (i < conv.length - 1) expect(conv[i + 1]!.from).toBe('observation');
          const v = JSON.parse(t.value) as Obj | Obj[];
          const list = Array.isArray(v) ? v : [v];
          for (const c of list) {
            expect(Object.keys(c).sort()).toEqual(['arguments', 'name']);
            expect(typeof c.arguments === 'object' && !Array.isArray(c.arguments)).toBe(true);
            expect(names.has(c.name)).toBe(true);
          }
          if (Array.isArray(v)) {
            parallel++;
            expect(conv[i + 1]!.value.split('\n</tool_response>\n<tool_response>\n')).toHaveLength(v.length);
          }
        });
      }
      expect(parallel).toBeGreaterThan(0);
      // Every τ² conversation opens with the assistant's greeting, which cannot open a sharegpt conversation.
      expect(res.report.lint.byCode.leading_assistant_dropped).toBeGreaterThanOrEqual(
        figure(20, () => tau2Trajectories().length),
      );
      expect(res.report.lint.byCode.text_dropped_with_tool_call).toBeGreaterThan(0);
      const lint = readJson<{ summary: Obj; findings: { recordId: string; code: string }[] }>(
        path.join(out, 'lint.json'),
      );
      expect(lint.findings.filter((f) => f.code === 'leading_assistant_dropped')).toHaveLength(
        res.report.lint.byCode.leading_assistant_dropped!,
      );
    });

    it("each dialect's own lint passes every row read back from its file", () => {
      for (const d of ['trl', 'openai', 'llamafactory'] as const) {
        const { rows } = exportCorpora(d, records);
        const errors = rows.flatMap((r) => DIALECTS[d].lint(r).filter((i) => i.severity === 'error'));
        expect(errors, d).toEqual([]);
      }
    });
  },
);
