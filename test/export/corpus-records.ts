import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SftRecord } from '../../src/main/core/export/sft';
import {
  clawTrajectories,
  hasTauCorpora,
  recordOf,
  tau2SftRows,
  tau2Trajectories,
  tauBenchTrajectories,
} from '../helpers/sft-corpus';
import { hasGoldens } from '../helpers/goldens';

export const corporaPresent = hasTauCorpora && hasGoldens;
export const SKIP_REASON = 'COWORKENV_SHARED names a folder without the corpora (unset it for the shipped subset)';

/**
 * Pools for the dialect tests: every corpus record reaches the dialect (no threshold), the converter on for the mixed
 * pool.
 */
export const OPEN_POOLS = {
  mixed: { minReward: null, converter: true },
  unscored: { minReward: null, converter: false },
};

/**
 * Every real record present: τ-bench (200 in ../shared), τ² results (20), τ² OpenAI-FT rows (37), Claw-Eval runs (42).
 */
export function corpusRecords(): SftRecord[] {
  return [
    ...tauBenchTrajectories().map((r) => recordOf(r.t, { taskId: r.taskId, trial: r.trial, reward: r.reward })),
    ...tau2Trajectories().map((r) => recordOf(r.t, { taskId: r.taskId, trial: r.trial, reward: r.reward })),
    ...tau2SftRows().map((r) => recordOf(r.t, { pool: 'unscored' })),
    ...clawTrajectories().map((t) => recordOf(t, { reward: 0.88 })),
  ];
}

export const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

export type ManifestJson = {
  dialect: string;
  files: { path: string; bytes: number; sha256: string; rows: number | null }[];
  records: { recordId: string; trajectoryId: string; index: number; sha256: string; file: string; lineage: unknown }[];
  report: {
    exported: number;
    rejected: number;
    rejections: Record<string, { count: number }>;
    lint: { byCode: Record<string, number> };
  };
  loading: string[];
};

export const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

/** The data lines of a JSONL file, each checked to end with a newline and to be one compact object. */
export function jsonlLines(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  if (text && !text.endsWith('\n')) throw new Error(`${file} does not end with a newline`);
  return text ? text.slice(0, -1).split('\n') : [];
}

/** Checks every file's size and sha256 against the manifest, and every line's against its record entry. */
export function checkManifestHashes(dir: string, m: ManifestJson): void {
  for (const f of m.files) {
    const b = fs.readFileSync(path.join(dir, f.path));
    if (b.length !== f.bytes || sha256(b) !== f.sha256)
      throw new Error(`${f.path}: size or sha256 differs from the manifest`);
  }
}
