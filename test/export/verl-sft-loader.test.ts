import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Template } from '@huggingface/jinja';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSft, type SftRecord } from '../../src/main/core/export/sft';
import { VERL_LOADER_CLASS, VERL_LOADER_FILE, verlTrainCommand } from '../../src/main/core/export/sft/verl-loader';
import { PYTHON, python } from '../helpers/python';
import { tempDir } from '../helpers/temp';
import { callOf, rec, say, trajectory, user } from './build';
import { corporaPresent, corpusRecords, type ManifestJson, OPEN_POOLS, readJson, SKIP_REASON } from './corpus-records';

/**
 * The verl SFT export as verl v0.9.0's trainer loads it: the export's dataset class, named the way the README's
 * command names it (data.custom_cls.path / .name), over the rows read back from train.parquet, driven through a
 * stand-in of v0.9.0's MultiTurnSFTDataset (fixtures/verl_stub: verl needs torch), then rendered with Qwen2.5's
 * chat template (fixtures/qwen2.5) the way apply_chat_template renders them.
 */
type Msg = { role: string; content: string | null; tool_calls: { function: { arguments: unknown } }[] | null };
type Tool = { type: string; function: { name: string; parameters: unknown } };
type Handed = { messages: Msg[]; tools: Tool[] | null };

const STUB = path.join(__dirname, 'fixtures/verl_stub');
const DRIVER = path.join(__dirname, 'fixtures/verl_sft_driver.py');
const BASE_CLASS = [path.join(STUB, 'verl/utils/dataset/multiturn_sft_dataset.py'), 'MultiTurnSFTDataset'] as const;
const QWEN25 = new Template(fs.readFileSync(path.join(__dirname, '../fixtures/qwen2.5/chat_template.jinja'), 'utf8'));
const render = (h: Handed) => QWEN25.render({ messages: h.messages, tools: h.tools, add_generation_prompt: false });
const GUNZIP = { GZIP: (b: Uint8Array) => new Uint8Array(zlib.gunzipSync(b)) };

async function parquetRows(dir: string): Promise<Record<string, unknown>[]> {
  return parquetReadObjects({ file: await asyncBufferFromFile(path.join(dir, 'train.parquet')), compressors: GUNZIP });
}

/** What a dataset class (file + name) hands to apply_chat_template for each row. */
async function handed(cls: readonly [string, string], rows: unknown[]): Promise<Handed[]> {
  const file = path.join(tempDir(), 'rows.json');
  fs.writeFileSync(file, JSON.stringify(rows));
  return JSON.parse(await python([DRIVER, cls[0], cls[1], file], { PYTHONPATH: STUB }));
}

function exportVerl(records: SftRecord[], options = {}) {
  const out = path.join(tempDir(), 'verl');
  exportSft({ records, dialect: 'verl', outDir: out, options: { pools: OPEN_POOLS, ...options } });
  return out;
}

/** The assistant turns' `<tool_call>` bodies, each parsed (the system block's format example is skipped). */
const toolCalls = (text: string) =>
  [...text.slice(text.indexOf('<|im_end|>')).matchAll(/<tool_call>\n(.*?)\n<\/tool_call>/gs)].map(
    (m) => JSON.parse(m[1]!) as { arguments: unknown },
  );

const ARGS: Record<string, unknown>[] = [
  { id: 'r0' },
  { ids: ['a', 'b'], limit: 5 },
  { filter: { from: 'dana@example.com', unread: true }, fields: ['subject'] },
  {},
];

function records(): SftRecord[] {
  return ARGS.map((args, i) => {
    const calls = i === 1 ? [callOf('c1a', args), callOf('c1b', { id: 'r1' })] : [callOf(`c${i}`, args)];
    const t = trajectory(`t${i}`, [
      user(`request ${i}`),
      { role: 'assistant', content: null, reasoning: null, tool_calls: calls },
      ...calls.map((c) => ({
        role: 'tool' as const,
        tool_call_id: c.id,
        name: 'lookup',
        content: `result of ${c.id}`,
        is_error: false,
      })),
      say(`done ${i}`),
    ]);
    return rec(t, { taskId: `task-${i}` });
  });
}

describe.skipIf(!PYTHON.ok)(
  `the verl SFT export through its dataset class${PYTHON.ok ? '' : ` (${PYTHON.why})`}`,
  () => {
    let out: string;
    let rows: Record<string, unknown>[];
    beforeAll(async () => {
      out = exportVerl(records(), { pools: { mixed: { minReward: null, converter: false } } });
      rows = await parquetRows(out);
    });

    it('writes the dataset class and a README with the trainer command; the manifest lists and explains both', () => {
      const m = readJson<ManifestJson & { files: { path: string }[] }>(path.join(out, 'manifest.json'));
      expect(m.files.map((f) => f.path)).toEqual(expect.arrayContaining([VERL_LOADER_FILE, 'README.md']));
      const readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8');
      expect(readme).toContain(verlTrainCommand());
      for (const key of [
        `data.custom_cls.path=$PWD/${VERL_LOADER_FILE}`,
        `data.custom_cls.name=${VERL_LOADER_CLASS}`,
        'data.messages_key=messages',
        'data.tools_key=tools',
        '-m verl.trainer.sft_trainer',
      ])
        expect(verlTrainCommand()).toContain(key);
      expect(m.loading.join('\n')).toContain(`data.custom_cls.name=${VERL_LOADER_CLASS}`);
      expect(m.loading.join('\n')).not.toContain('data.multiturn.');
    });

    it('Qwen2.5 renders every argument and parameter schema as a JSON object, not an escaped string', async () => {
      const got = await handed([path.join(out, VERL_LOADER_FILE), VERL_LOADER_CLASS], rows);
      expect(got).toHaveLength(ARGS.length);
      const calls = got.flatMap((h) => toolCalls(render(h)));
      expect(calls.map((c) => c.arguments)).toEqual([ARGS[0], ARGS[1], { id: 'r1' }, ARGS[2], ARGS[3]]);
      for (const h of got) {
        const text = render(h);
        expect(text).not.toMatch(/"arguments": "/);
        expect(text).toContain('{"type": "function", "function": {"name": "lookup", "description": "Look a record');
        expect(text).toContain('"parameters": {"type": "object", "properties": {"id": {"type": "string"}}');
      }
    });

    it("without it, verl's own MultiTurnSFTDataset renders them as escaped strings (the bug it fixes)", async () => {
      const got = await handed(BASE_CLASS, rows);
      const text = render(got[0]!);
      expect(text).toContain('"arguments": "{\\"id\\":\\"r0\\"}"');
      expect(text).toContain('"parameters": "{');
    });

    it('stops on a value that is not a JSON object, naming the dataset row and the field', async () => {
      const broken = structuredClone(rows) as { messages: Msg[]; tools: Tool[] }[];
      broken[2]!.messages[1]!.tool_calls![0]!.function.arguments = '{"id": ';
      await expect(handed([path.join(out, VERL_LOADER_FILE), VERL_LOADER_CLASS], broken)).rejects.toThrow(
        /DecodeError: dataset row 2: messages\[1\]\.tool_calls\[0\]\.function\.arguments is not JSON/,
      );
      const badTools = structuredClone(rows) as { messages: Msg[]; tools: Tool[] }[];
      badTools[3]!.tools[0]!.function.parameters = '["id"]';
      await expect(handed([path.join(out, VERL_LOADER_FILE), VERL_LOADER_CLASS], badTools)).rejects.toThrow(
        /DecodeError: dataset row 3: tools\[0\]\.function\.parameters is not a JSON object/,
      );
    });
  },
);

describe.skipIf(!PYTHON.ok || !corporaPresent)(
  `the corpora's verl export through its dataset class${corporaPresent ? '' : ` (skipped: ${SKIP_REASON})`}`,
  () => {
    it('every tool call of every row renders with object arguments under Qwen2.5', async () => {
      const out = exportVerl(corpusRecords());
      const rows = await parquetRows(out);
      const source = rows.flatMap((r) =>
        (r.messages as Msg[]).flatMap((m) =>
          (m.tool_calls ?? []).map((c) => JSON.parse(c.function.arguments as string)),
        ),
      );
      expect(source.length).toBeGreaterThan(0);
      const got = await handed([path.join(out, VERL_LOADER_FILE), VERL_LOADER_CLASS], rows);
      const rendered = got.flatMap((h) => toolCalls(render(h)).map((c) => c.arguments));
      expect(rendered).toEqual(source);
    });
  },
);
