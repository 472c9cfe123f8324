import fs from 'node:fs';
import path from 'node:path';
import { type ManifestDiff, SftManifest } from '../../../../shared/contract/entities/export';
import { AppError } from '../../lib/errors';
import { parseJsonText } from '../../lib/json-input';

/** Reads an export's manifest (a folder or the manifest.json itself); errors name the file and the field. */
export function readManifest(where: string): SftManifest {
  const file = fs.existsSync(where) && fs.statSync(where).isDirectory() ? path.join(where, 'manifest.json') : where;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new AppError('NOT_FOUND', `cannot read ${file}: ${(e as Error).message}`);
  }
  const json = parseJsonText(text, file);
  if (!json.ok) throw new AppError('INVALID_INPUT', json.message);
  const m = SftManifest.safeParse(json.value);
  if (!m.success) {
    const i = m.error.issues[0]!;
    throw new AppError(
      'INVALID_INPUT',
      `${file}: not an SFT export manifest: ${i.path.join('.') || '(root)'}: ${i.message}`,
    );
  }
  return m.data;
}

const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

/**
 * What changed between two exports, by record id: added, removed, changed (same id, other bytes),
 * plus the counts, the rejection counts per reason, and which options differ.
 */
export function diffManifests(a: SftManifest, b: SftManifest): ManifestDiff {
  const before = new Map(a.records.map((r) => [r.recordId, r.sha256]));
  const added: string[] = [];
  const changed: string[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const r of b.records) {
    seen.add(r.recordId);
    const old = before.get(r.recordId);
    if (old === undefined) added.push(r.recordId);
    else if (old !== r.sha256) changed.push(r.recordId);
    else unchanged++;
  }
  const removed = a.records.filter((r) => !seen.has(r.recordId)).map((r) => r.recordId);
  const rejections: ManifestDiff['rejections'] = {};
  for (const reason of new Set([...Object.keys(a.report.rejections), ...Object.keys(b.report.rejections)]))
    rejections[reason] = { a: a.report.rejections[reason]?.count ?? 0, b: b.report.rejections[reason]?.count ?? 0 };
  const ao = a.options as Record<string, unknown>;
  const bo = b.options as Record<string, unknown>;
  const options = [...new Set([...Object.keys(ao), ...Object.keys(bo)])]
    .filter((k) => canon(ao[k]) !== canon(bo[k]))
    .sort();
  return {
    added,
    removed,
    changed,
    unchanged,
    counts: {
      a: { exported: a.report.exported, rejected: a.report.rejected },
      b: { exported: b.report.exported, rejected: b.report.rejected },
    },
    rejections,
    options,
    dialect: { a: a.dialect, b: b.dialect },
    toolVersion: { a: a.tool.version, b: b.tool.version },
  };
}
