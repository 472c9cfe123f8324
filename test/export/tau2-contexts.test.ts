import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, readHandle } from '../../src/main/core/db/sqlite';
import { exportSft } from '../../src/main/core/export/sft';
import type { SftRecord } from '../../src/main/core/export/sft';
import {
  admittedOf,
  exportTrajectory,
  RedactionTally,
  workspaceSftRecords,
} from '../../src/main/core/export/workspace/sft-records';
import { ContextCache } from '../../src/main/core/trajectories/load-trajectory';
import type { SftSelection } from '../../src/shared/contract/export.contract';
import { createTestCore, tempDir } from '../helpers/test-core';
import { FULL_DATA } from '../helpers/shared-data';
import { hasTrajCorpus, importFiles, TAU2_RESULTS, TAU2_SFT } from '../helpers/trajectory-import';

// biome-ignore lint/suspicious/noExplicitAny: corpus JSON, read loosely
type Json = Record<string, any>;

const SECRET = `sk-proj-${'Q7xZ2mK9pL4v'.repeat(4)}`;

/**
 * Issue 17: an export parses each τ² source's header (info + tasks) once, through a ContextCache,
 * instead of once per trajectory. These pin what must not change with it: the exported bytes equal
 * those of the per-record path, and no record gets another source's header — of another file in the
 * same workspace, or of a file in another workspace whose context has the same id.
 */
// Counts of the full corpora (257 trajectories): not on the shipped subset.
describe.skipIf(!(hasTrajCorpus && FULL_DATA))(
  'τ² headers in an SFT export: parsed once per source, never mixed up',
  () => {
    const dir = tempDir('tau2-contexts-');
    const selection: SftSelection = { pool: 'mixed', admittedBuckets: ['KEEP', 'TRIVIAL'], allUncurated: true };
    const options = {
      admittedBuckets: admittedOf(selection),
      pools: { mixed: { minReward: null, converter: false } },
    };
    /**
     * The corpus file with its header marked by `tag` (the agent model, the policy, each tool's
     * description), its simulations as trial `trial`: no record of one file duplicates one of the other.
     */
    function variant(tag: string, trial: number): string {
      const src = JSON.parse(fs.readFileSync(TAU2_RESULTS, 'utf8')) as Json;
      const tools = (fs.readFileSync(TAU2_SFT, 'utf8').split('\n').filter(Boolean) as string[])
        .map((l) => (JSON.parse(l) as Json).tools as Json[])
        .find((t) => t.some((x) => x.function.name === 'get_reservation_details'))!;
      const env = src.info.environment_info;
      for (const sim of src.simulations as Json[]) sim.trial = trial;
      src.info.agent_info.llm = `model-${tag}`;
      env.policy = `Policy ${tag}. ${env.policy}`;
      env.tool_defs = tools.map((t) => ({
        ...t,
        function: { ...t.function, description: `${tag}: ${t.function.description}` },
      }));
      // B's tools hold a credential: a tool list is skipped by redaction only when it is clean (CleanTools).
      if (tag === 'B') env.tool_defs[0].function.description += ` (key ${SECRET})`;
      const file = path.join(dir, `source-${tag}.json`);
      fs.writeFileSync(file, JSON.stringify(src, null, 2));
      return file;
    }
    const workspaces: { path: string; close(): Promise<void> }[] = [];
    let both: string;
    let onlyB: string;

    beforeAll(async () => {
      const a = variant('A', 0);
      const b = variant('B', 1);
      for (const files of [[a, b], [b]]) {
        const { core, workspacePath } = createTestCore();
        const r = await importFiles(core, { paths: files });
        expect(r.stored).toBe(20 * files.length);
        workspaces.push({ path: workspacePath, close: () => core.close() });
      }
      [both, onlyB] = workspaces.map((w) => w.path) as [string, string];
    }, 120_000);
    afterAll(async () => {
      for (const w of workspaces) await w.close();
    });

    /** Exports a workspace in this process; `perRecord` loads each body without a shared cache (the old path). */
    function exportOf(workspace: string, name: string, perRecord = false) {
      const db = openDb(workspace, { readOnly: true });
      try {
        const rdb = readHandle(db);
        const cached = workspaceSftRecords(rdb, selection, new RedactionTally());
        const records: Iterable<SftRecord> = perRecord
          ? {
              *[Symbol.iterator]() {
                for (const r of cached)
                  yield { ...r, trajectory: () => exportTrajectory(rdb, Number(r.recordId), new RedactionTally()) };
              },
            }
          : cached;
        const out = path.join(dir, name);
        const result = exportSft({ records, dialect: 'openai', outDir: out, options });
        const data = fs.readFileSync(path.join(out, result.files[0]!.path), 'utf8');
        const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as Json;
        const rows = data
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Json);
        return { data, rows, sources: (manifest.records as Json[]).map((e) => e.lineage.collection as string) };
      } finally {
        db.close();
      }
    }

    /** The source tag a row's header gave it: from its system prompt (the policy) and its tools. */
    const tagsOf = (row: Json) => ({
      policy: /Policy ([AB])\./.exec(row.messages[0].content)?.[1],
      tools: [...new Set((row.tools as Json[]).map((t) => t.function.description.slice(0, 1)))],
    });

    it('exports every record with its own file’s header, the same bytes as loading each record alone', () => {
      const cached = exportOf(both, 'both-cached');
      const alone = exportOf(both, 'both-per-record', true);
      expect(cached.rows).toHaveLength(40);
      expect(cached.data).toBe(alone.data);
      expect(cached.data).not.toContain(SECRET);
      expect(cached.data).toMatch(/\(key \[REDACTED:[a-z_]+\]\)/);
      expect(new Set(cached.sources)).toEqual(new Set(['source-A', 'source-B']));
      cached.rows.forEach((row, i) => {
        const tag = cached.sources[i] === 'source-A' ? 'A' : 'B';
        expect(tagsOf(row), `record ${i} of ${cached.sources[i]}`).toEqual({ policy: tag, tools: [tag] });
      });
    });

    it('a second workspace in the same process, whose context 1 is another file, gets its own header', () => {
      exportOf(both, 'first');
      const second = exportOf(onlyB, 'second');
      expect(second.rows).toHaveLength(20);
      for (const row of second.rows) expect(tagsOf(row)).toEqual({ policy: 'B', tools: ['B'] });
    });

    it('ContextCache parses a header once, keeps the last few, and is bounded by size as well', () => {
      const db = openDb(both, { readOnly: true });
      try {
        const rdb = readHandle(db);
        const cache = new ContextCache(rdb, 1);
        const first = cache.get(1);
        expect((first as Json).info.agent_info.llm).toBe('model-A');
        expect(cache.get(1)).toBe(first);
        expect((cache.get(2) as Json).info.agent_info.llm).toBe('model-B');
        expect(cache.get(1)).not.toBe(first); // evicted by the second header: parsed again, equal
        expect(cache.get(1)).toEqual(first);
        const tiny = new ContextCache(rdb, 4, 10);
        const h = tiny.get(1);
        expect(tiny.get(2)).not.toBe(h);
        expect(tiny.get(1)).not.toBe(h); // over the budget: only the header in use stays
        expect(new ContextCache(rdb).get(999)).toBeNull();
      } finally {
        db.close();
      }
    });
  },
);
