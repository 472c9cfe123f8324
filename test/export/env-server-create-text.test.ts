import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { EpisodeStore } from '../../src/main/core/rl-env/episodes';
import { loadRlPackage } from '../../src/main/core/rl-env/package-load';
import { serveRlPackage, type RlEnvServer } from '../../src/main/headless/rl-env-server';
import { CLOCK, deterministicTask, handTask } from '../helpers/rollouts';
import { tempDir } from '../helpers/temp';

// The server writes a create's answer from a per-task cached tail (prompt, tools): it must stay the exact
// bytes JSON.stringify writes for the answer as objects, for every kind of create body.
const task = deterministicTask();
const other = handTask({ task_id: 'HW002_other', prompt: { text: 'Réponds « vite » — 中文, "quoted" \\ ✓' } });
const bodies: Record<string, unknown>[] = [
  { task_id: task.spec.task_id },
  { task_id: task.spec.task_id, seed: 7, mode: 'fixed' },
  { task_id: 'HW002_other', clock: '2027-01-02T03:04:05Z', error_rate: 0.5, seed: -3 },
  { task_id: 'HW002_other' },
];
let dir: string;
let server: RlEnvServer;

beforeAll(async () => {
  dir = path.join(tempDir(), 'pkg');
  await exportRlPackage({ tasks: [task, other], outDir: dir, clock: CLOCK });
  server = await serveRlPackage({ packageDir: dir, port: 0 });
});
afterAll(() => server?.close());

describe('env server: the create answer as text', () => {
  it('is JSON.stringify of the answer as objects, byte for byte, on first and later creates', () => {
    const store = new EpisodeStore(loadRlPackage(dir));
    for (const body of [...bodies, ...bodies]) {
      const objects = store.create(body);
      const { episodeId, text } = store.createText(body);
      expect(text).toBe(JSON.stringify({ ...objects, episode_id: episodeId }));
    }
    expect(store.open).toBe(bodies.length * 4);
  });

  it('is what the server sends (201), and the episode it names is open there', async () => {
    const reference = new EpisodeStore(loadRlPackage(dir));
    for (const body of bodies) {
      const res = await fetch(`${server.url}/episodes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      const text = await res.text();
      const id = (JSON.parse(text) as { episode_id: string }).episode_id;
      expect(text).toBe(JSON.stringify({ ...reference.create(body), episode_id: id }));
      expect(server.store.info(id)).toMatchObject({ episode_id: id, steps: 0 });
    }
  });

  it('gives every episode its own 24-hex-digit id, across many id batches', () => {
    const store = new EpisodeStore(loadRlPackage(dir), { maxEpisodes: 2000, idleMs: 60_000, maxStepsPerEpisode: 5 });
    const ids = Array.from({ length: 1000 }, () => store.createText({ task_id: task.spec.task_id }).episodeId);
    for (const id of ids) expect(id).toMatch(/^ep_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
