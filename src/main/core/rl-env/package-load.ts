import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { sha256 } from '../export/package-files';
import { PackageTaskRecord, RL_PACKAGE_FORMAT, RL_PACKAGE_VERSION } from '../export/rl/package-record';
import { parseJsonText } from '../lib/json-input';
import { fixtureRecords, toPlain, type PyValue } from '../py/pyjson';
import type { StoredFixture } from '../tasks/task-spec-of';

/** A package that cannot be served: names the file (and line or field) at fault. */
export class PackageError extends Error {}

/** A task as the server builds its episodes: the spec as the app had it (inline records back in place). */
export type ServedTask = {
  record: PackageTaskRecord;
  spec: TaskSpec;
  /** Fixture files of the services without inline records (parsed once, shared by every episode). */
  fixtures: StoredFixture[];
  clock: Date;
};

export type LoadedPackage = { dir: string; packageId: string; tasks: Map<string, ServedTask> };

const Manifest = z.looseObject({
  format: z.literal(RL_PACKAGE_FORMAT),
  format_version: z.literal(RL_PACKAGE_VERSION),
  package_id: z.string(),
  files: z.array(z.object({ path: z.string(), sha256: z.string() }).loose()),
});

function read(dir: string, rel: string): Buffer {
  const file = path.join(dir, rel);
  if (!path.resolve(file).startsWith(path.resolve(dir) + path.sep))
    throw new PackageError(`${rel}: the path leaves the package folder`);
  try {
    return fs.readFileSync(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new PackageError(`${file}: ${e.code === 'ENOENT' ? 'missing from the package' : e.message}`);
  }
}

/**
 * Loads an RL package from its folder alone (never the workspace): the manifest, tasks.jsonl and
 * every fixture file, each checked against the sha256 the export recorded, so a package edited by
 * hand is refused rather than served half-changed.
 */
export function loadRlPackage(dir: string): LoadedPackage {
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new PackageError(`${abs}: no such package folder`);
  const manifestText = read(abs, 'manifest.json').toString('utf8');
  const parsed = parseJsonText(manifestText, 'manifest.json');
  if (!parsed.ok) throw new PackageError(`${abs}/${parsed.message}`);
  const m = Manifest.safeParse(parsed.value);
  if (!m.success) {
    const i = m.error.issues[0]!;
    throw new PackageError(
      `${abs}/manifest.json: field ${i.path.join('.') || '(top level)'}: ${i.message} (not a ${RL_PACKAGE_FORMAT} v` +
        `${RL_PACKAGE_VERSION} manifest)`,
    );
  }
  const hashes = new Map(m.data.files.map((f) => [f.path, f.sha256]));
  const checked = (rel: string, want = hashes.get(rel)) => {
    const bytes = read(abs, rel);
    if (!want) throw new PackageError(`${abs}/${rel}: not listed in manifest.json`);
    if (sha256(bytes) !== want)
      throw new PackageError(
        `${abs}/${rel}: changed since the export (sha256 differs from manifest.json); export again`,
      );
    return bytes.toString('utf8');
  };
  const tasks = new Map<string, ServedTask>();
  const lines = checked('tasks.jsonl').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${abs}/tasks.jsonl line ${i + 1}`;
    const json = parseJsonText(line, where);
    if (!json.ok) throw new PackageError(json.message);
    const r = PackageTaskRecord.safeParse(json.value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new PackageError(`${where}: field ${issue.path.join('.')}: ${issue.message}`);
    }
    tasks.set(r.data.task_id, served(abs, r.data, checked));
  });
  if (!tasks.size) throw new PackageError(`${abs}/tasks.jsonl: no task`);
  return { dir: abs, packageId: m.data.package_id, tasks };
}

function served(dir: string, record: PackageTaskRecord, checked: (rel: string, want?: string) => string): ServedTask {
  const inline = new Map<string, PyValue[]>();
  const fixtures: StoredFixture[] = [];
  for (const f of record.fixtures) {
    const content = checked(f.path, f.sha256);
    const stored = { service: f.service, env: f.env, content };
    let records: PyValue;
    try {
      records = fixtureRecords(stored);
    } catch {
      throw new PackageError(`${dir}/${f.path}: not valid JSON`);
    }
    if (f.inline) inline.set(f.service, records as PyValue[]);
    else fixtures.push(stored);
  }
  const spec: TaskSpec = {
    ...record.spec,
    services: record.spec.services.map((s) =>
      inline.has(s.name) ? { ...s, records: toPlain(inline.get(s.name) as PyValue) as Record<string, unknown>[] } : s,
    ),
  };
  return { record, spec, fixtures, clock: new Date(record.clock) };
}
