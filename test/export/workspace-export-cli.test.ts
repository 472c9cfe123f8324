import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SftManifest } from '../../src/shared/contract/entities/export';
import { writeTrace } from '../../src/main/core/traces';
import { synthTrajectory } from '../helpers/claw-traces';
import { makeWorkspaceFile } from '../helpers/files';
import { CLAW_ROOT, goldenTaskIds, hasGoldens } from '../helpers/goldens';
import { hasTauCorpora, TAU2_FILE, TAU2_SFT_FILE, TAU_FILE } from '../helpers/sft-corpus';
import { FULL_DATA } from '../helpers/shared-data';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

const canRun = hasGoldens && hasTauCorpora && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
/** Fake credentials Claw-Eval T028 plants in its fixtures (and its recorded tool results carry). */
const PLANTED = ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'whsec_MbNkVTkDyLXjRiPuBkWHGg3nFz'];
const GUNZIP = { GZIP: (input: Uint8Array) => new Uint8Array(zlib.gunzipSync(input)) };
const readJson = <T>(f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as T;
/** Records of the three τ files, counted in the files. */
const tauRecords = () =>
  readJson<unknown[]>(TAU_FILE).length +
  readJson<{ simulations: unknown[] }>(TAU2_FILE).simulations.length +
  fs.readFileSync(TAU2_SFT_FILE, 'utf8').split('\n').filter(Boolean).length;
const jsonl = (f: string) =>
  fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const allText = (dir: string) =>
  fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f)))
    .map((b) => b.toString('latin1'))
    .join('\n');

describe.skipIf(!canRun)(
  `coworkenv export on a workspace with the corpora imported${canRun ? '' : ' (skipped: the corpora are absent)'}`,
  () => {
    let ws: string;
    const dir = tempDir('export-cli-');
    const cli = (...argv: string[]) => runCliCaptured(['--workspace', ws, ...argv]);
    const out = (name: string) => path.join(dir, name);
    const maxId = () => {
      const db = new Database(ws, { readonly: true });
      const n = (db.prepare('SELECT max(id) AS n FROM trajectories').get() as { n: number }).n;
      db.close();
      return n;
    };
    const sql = (statement: string) => {
      const db = new Database(ws);
      db.prepare(statement).run();
      db.close();
    };

    beforeAll(async () => {
      ws = await makeWorkspaceFile();
      expect((await cli('tasks', 'import', CLAW_ROOT)).code).toBe(0);
      // Two trials of every recorded corpus task: the full recorded run, and one without its writes.
      const traces = path.join(dir, 'traces');
      fs.mkdirSync(traces);
      for (const id of goldenTaskIds()) {
        fs.writeFileSync(path.join(traces, `${id}-a.jsonl`), writeTrace(synthTrajectory(id)));
        const reads = synthTrajectory(id, { keep: (tool) => /get|list|search|read|find/.test(tool) });
        fs.writeFileSync(path.join(traces, `${id}-b.jsonl`), writeTrace(reads));
      }
      const imported = await cli('trajectories', 'import', traces, '--collection', 'claw-runs');
      expect(imported.code, imported.stderr).toBe(0);
      for (const f of [TAU_FILE, TAU2_FILE, TAU2_SFT_FILE])
        expect((await cli('trajectories', 'import', f)).code).toBe(0);
    }, 600_000);

    it('says clearly that nothing is curated and exports nothing, unless --all-uncurated (exit 4)', async () => {
      const r = await cli('export', 'sft', '--dialect', 'trl', '--out', out('none'));
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/nothing is curated yet: none of the \d+ trajectories has a bucket/);
      expect(r.stderr).toContain('--all-uncurated');
      expect(fs.existsSync(out('none'))).toBe(false);
    });

    for (const dialect of ['trl', 'openai', 'llamafactory', 'verl'] as const)
      it(`writes ${dialect} from the workspace and reads it back`, async () => {
        const to = out(`sft-${dialect}`);
        const r = await cli('export', 'sft', '--dialect', dialect, '--out', to, '--all-uncurated');
        expect(r.code, r.stderr).toBe(0);
        const m = readJson<SftManifest>(path.join(to, 'manifest.json'));
        // The shipped subset's τ records mostly fail the default min reward: fewer pass there.
        expect(m.report.exported, JSON.stringify(m.report.rejections)).toBeGreaterThan(FULL_DATA ? 10 : 0);
        expect(r.stdout).toContain(`${m.report.exported} of ${m.report.input} trajectories exported (${dialect})`);
        // Every stored trajectory is accounted for: exported, or rejected with exactly one reason.
        const reasons = Object.values(m.report.rejections).reduce((n, x) => n + x.count, 0);
        expect(m.report.exported + reasons).toBe(m.report.input);
        expect(jsonl(path.join(to, 'rejections.jsonl'))).toHaveLength(m.report.rejected);
        // Lineage back to the workspace: trajectory id, run, task version for tasks it holds.
        const rec = m.records.find((x) => x.lineage.taskVersion !== null)!;
        expect(rec.lineage).toMatchObject({ trajectoryId: Number(rec.recordId), taskVersion: 1 });
        expect(rec.lineage.runId).toEqual(expect.any(Number));
        const data = m.files[0]!.path;
        if (dialect === 'verl') {
          const file = new Uint8Array(fs.readFileSync(path.join(to, data))).buffer;
          const rows = await parquetReadObjects({ file, compressors: GUNZIP });
          expect(rows).toHaveLength(m.report.exported);
          expect(Array.isArray(rows[0]!.messages)).toBe(true);
        } else expect(jsonl(path.join(to, data))).toHaveLength(m.report.exported);
        // Every dialect, verl's parquet included, re-reads clean.
        const lint = await cli('export', 'lint', to);
        expect(lint.code, lint.stdout).toBe(0);
        expect(lint.stdout).toContain(`${m.report.exported} records: 0 errors`);
        for (const k of PLANTED) expect(allText(to)).not.toContain(k);
      });

    it("redacts T028's planted credentials that its recorded runs read (no allow-list on export)", async () => {
      const to = out('sft-t028');
      const r = await cli(
        ...['export', 'sft', '--dialect', 'openai', '--out', to, '--all-uncurated', '--min-reward', '0'],
        ...['--collection', 'claw-runs'],
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/redacted \d+ credential-shaped strings in \d+ trajectories \(.*stripe/);
      const m = readJson<SftManifest>(path.join(to, 'manifest.json'));
      const t028 = m.records.filter((x) => x.taskId.startsWith('T028'));
      expect(t028.length).toBeGreaterThan(0);
      const lines = jsonl(path.join(to, 'train.jsonl'));
      const text = t028.map((x) => JSON.stringify(lines[x.index])).join('\n');
      expect(text).toContain('[REDACTED:stripe]');
      for (const k of PLANTED) expect(allText(to)).not.toContain(k);
    });

    it('refuses an existing folder (exit 3) and replaces it with --overwrite', async () => {
      const to = out('sft-trl');
      const before = fs.readFileSync(path.join(to, 'manifest.json'), 'utf8');
      const r = await cli('export', 'sft', '--dialect', 'trl', '--out', to, '--all-uncurated');
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('already exists');
      expect(fs.readFileSync(path.join(to, 'manifest.json'), 'utf8')).toBe(before);
      const again = await cli('export', 'sft', '--dialect', 'trl', '--out', to, '--all-uncurated', '--overwrite');
      expect(again.code, again.stderr).toBe(0);
    });

    it('follows curation: include overrides, excluded rows and admitted buckets; diff shows what changed', async () => {
      // A trajectory's bucket is its task's (curation INTERFACE): the claw-runs tasks are KEEP.
      sql(
        "UPDATE curation_tasks SET bucket = 'KEEP' " +
          "WHERE task_id IN (SELECT task_id FROM trajectories WHERE collection = 'claw-runs')",
      );
      sql("UPDATE trajectories SET include_override = 'exclude' WHERE id = (SELECT min(id) FROM trajectories)");
      sql("UPDATE trajectories SET include_override = 'include' WHERE id = (SELECT max(id) FROM trajectories)");
      const to = out('sft-curated');
      const r = await cli('--json', 'export', 'sft', '--dialect', 'trl', '--out', to);
      expect(r.code, r.stderr).toBe(0);
      const m = readJson<SftManifest>(path.join(to, 'manifest.json'));
      expect(m.report.rejections.excluded_by_curation?.count).toBe(1);
      // Every τ record but the one included by hand (the excluded row is a claw run, imported first).
      expect(m.report.rejections.unbucketed?.count).toBeGreaterThan(FULL_DATA ? 100 : tauRecords() - 2);
      // The included row (no bucket) passed the bucket step: exported, or rejected by a later step.
      const included = jsonl(path.join(to, 'rejections.jsonl')).find((x) => x.record_id === String(maxId()));
      if (included) expect(included.step).not.toBe('buckets');
      else expect(m.records.map((x) => x.recordId)).toContain(String(maxId()));
      const collections = new Set(m.records.map((x) => (x.lineage as { collection: string }).collection));
      expect([...collections]).toContain('claw-runs');
      const diff = await cli('export', 'diff', out('sft-trl'), to);
      expect(diff.code).toBe(0);
      expect(diff.stdout).toMatch(/records: 0 added, \d+ removed, \d+ changed, \d+ unchanged/);
    });

    it('writes an RL package with GiGPO advantages that `env serve` serves', async () => {
      const to = out('rl');
      const r = await cli('export', 'rl', '--out', to, '--advantage', 'gigpo');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/package \S+: \d+ tasks, \d+ rollouts/);
      expect(fs.existsSync(path.join(to, 'README.md'))).toBe(true);
      const rollouts = fs.readFileSync(path.join(to, 'rollouts.jsonl'), 'utf8');
      for (const k of PLANTED) expect(rollouts).not.toContain(k);
      let stop: () => void = () => {};
      const stopped = new Promise<void>((res) => (stop = res));
      // The line the server prints once it listens (an event, not a poll with a deadline); it ending first fails.
      let listening: (line: string) => void = () => {};
      const served = new Promise<string>((res) => (listening = res));
      const server = runCliCaptured(['--workspace', ws, '--json', 'env', 'serve', '--package', to, '--port', '0'], {
        stdout: (s) => listening(s),
        untilStopped: () => stopped,
      });
      const ended = server.then((r) => Promise.reject(new Error(`env serve ended (${r.code}): ${r.stderr}`)));
      ended.catch(() => {}); // read by the race only: after stop() it ends on purpose
      const info = JSON.parse(await Promise.race([served, ended])) as { data: { url: string } };
      const root = (await (await fetch(info.data.url)).json()) as { tasks: number };
      expect(root.tasks).toBeGreaterThan(10);
      stop();
      expect((await server).code).toBe(0);
    });

    it('writes Claw-Eval task folders that import back into a fresh workspace', async () => {
      const to = out('claw');
      const r = await cli('export', 'claw-eval', '--out', to);
      expect(r.code, r.stderr).toBe(0);
      const n = fs.readdirSync(path.join(to, 'tasks')).length;
      expect(r.stdout).toContain(`${n} tasks (${n} verbatim`);
      const fresh = await makeWorkspaceFile();
      const back = await runCliCaptured(['--workspace', fresh, 'tasks', 'import', to]);
      expect(back.code, back.stderr).toBe(0);
    });
  },
);
