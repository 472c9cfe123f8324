import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fixtureRecords, toPlain } from '../../src/main/core/py/pyjson';
import { SERVICE_REGISTRY } from '../../src/main/core/services/registry';
import { CLAW_ROOT } from '../helpers/goldens';
import { clawTaskIds, FULL_DATA } from '../helpers/shared-data';
import { REPO_ROOT } from '../helpers/test-core';

/**
 * One registry-driven check instead of a copy per service test: every service folder is registered,
 * and every fixture record of the Claw-Eval corpus passes its service's record schema, read the way
 * the app reads it (fixtureRecords → toPlain, as validation's services-records does).
 */
const SERVICES_DIR = path.join(REPO_ROOT, 'src/main/core/services');

const folders = () =>
  fs
    .readdirSync(SERVICES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

describe('the service registry', () => {
  it('every service folder is registered under its own name, and every registered service has its folder', () => {
    // Every folder under services/ is a service (Python's JSON and time live in core/py/).
    const services = folders();
    for (const f of services) {
      expect(fs.existsSync(path.join(SERVICES_DIR, f, `${f}.service.ts`)), `services/${f}/${f}.service.ts`).toBe(true);
      expect(SERVICE_REGISTRY.has(f), `services/${f}/ is not in services/registry.ts`).toBe(true);
    }
    expect([...SERVICE_REGISTRY.keys()].sort()).toEqual(services);
    for (const [id, def] of SERVICE_REGISTRY) expect(def.id, id).toBe(id);
  });
});

type FixtureFile = { task: string; service: string; file: string };
const TASKS = path.join(CLAW_ROOT, 'tasks');
function corpusFixtures(): FixtureFile[] {
  if (!fs.existsSync(TASKS)) return [];
  return fs.readdirSync(TASKS).flatMap((task) => {
    const dir = path.join(TASKS, task, 'fixtures');
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir).flatMap((service) =>
      fs
        .readdirSync(path.join(dir, service))
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ task, service, file: path.join(dir, service, f) })),
    );
  });
}

/** The schema for a fixture file: the service's main fixture or one of its extra ones, by file name. */
function schemaFor(f: FixtureFile): z.ZodType | undefined {
  const def = SERVICE_REGISTRY.get(f.service);
  if (!def) return undefined;
  const kinds = [def, ...(def.extraFixtures ?? [])];
  return kinds.find((k) => path.basename(k.defaultFixture) === path.basename(f.file))?.recordSchema;
}

describe.skipIf(!fs.existsSync(TASKS))('every corpus fixture record passes its service’s record schema', () => {
  const files = corpusFixtures();

  it('the corpus has fixtures of every registered service', () => {
    // 102 files in the full corpus; each task of the shipped subset has at least one.
    expect(files.length).toBeGreaterThanOrEqual(FULL_DATA ? 100 : clawTaskIds().length);
    expect(new Set(files.map((f) => f.service))).toEqual(new Set(SERVICE_REGISTRY.keys()));
  });

  it.each(files.map((f) => [`${f.task}/fixtures/${f.service}/${path.basename(f.file)}`, f] as const))(
    '%s',
    (_name, f) => {
      const schema = schemaFor(f);
      expect(schema, `no fixture kind of service "${f.service}" is named ${path.basename(f.file)}`).toBeDefined();
      const records = fixtureRecords({ content: fs.readFileSync(f.file, 'utf8') });
      expect(Array.isArray(records), 'a fixture file holds a JSON array').toBe(true);
      const bad = (records as never[]).flatMap((r, i) => {
        const res = schema!.safeParse(toPlain(r));
        return res.success ? [] : res.error.issues.map((x) => `record ${i}, field ${x.path.join('.')}: ${x.message}`);
      });
      expect(bad).toEqual([]);
      expect((records as never[]).length).toBeGreaterThan(0);
    },
  );
});
