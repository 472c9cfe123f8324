/**
 * Benchmark workspaces: a core on a temp file, optionally filled with N varied slots written in
 * one transaction through the slots repo (the same INSERT the app and the grid job use).
 */
import { seededRandom } from '../../src/main/core/services/lib';
import path from 'node:path';
import { createCore, type Core } from '../../src/main/core';
import { slotsWriter, type NewSlot } from '../../src/main/core/plan/slots.repo';
import { openDb, writeHandle, type Db } from '../../src/main/core/db/sqlite';
import {
  DIFFICULTIES,
  LANGUAGES,
  SCENARIOS,
  SERVICE_IDS,
  type ServiceId,
} from '../../src/shared/contract/entities/slot';
import { tempDir } from './harness';

// Families and categories as a researcher names them; a few contain an 'x' so `family contains 'x'`
// matches a realistic minority of rows rather than none.
const FAMILIES = [
  'email-triage',
  'inbox-zero',
  'meeting-prep',
  'expense-audit',
  'tax-export',
  'vendor-onboarding',
  'ticket-escalation',
  'stock-reorder',
  'news-digest',
  'lead-followup',
  'config-drift',
  'cron-cleanup',
  'kb-refresh',
  'contact-dedupe',
  'invoice-matching',
  'travel-planning',
  'release-notes',
  'oncall-handoff',
  'budget-review',
  'index-rebuild',
];
const CATEGORIES = [
  'communication',
  'scheduling',
  'finance',
  'support',
  'operations',
  'knowledge',
  'sales',
  'admin',
  'safety',
  'research',
  'hr',
  'it',
];

/** Deterministic PRNG, so every run benchmarks the same data (the core's own seeded source). */
export const prng = seededRandom;

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/** Slot n of a varied plan: 1–3 services, 12 categories, 3 difficulties, 2 languages, ~2 years of dates. */
export function makeSlot(rnd: () => number): NewSlot {
  const k = 1 + Math.floor(rnd() * 3);
  const set = new Set<ServiceId>();
  while (set.size < k) set.add(pick(rnd, SERVICE_IDS));
  const day = new Date(Date.UTC(2025, 0, 1) + Math.floor(rnd() * 730) * 86_400_000).toISOString().slice(0, 10);
  return {
    family: pick(rnd, FAMILIES),
    services: [...set].sort((a, b) => SERVICE_IDS.indexOf(a) - SERVICE_IDS.indexOf(b)),
    category: pick(rnd, CATEGORIES),
    difficulty: pick(rnd, DIFFICULTIES),
    language: pick(rnd, LANGUAGES),
    reference_date: day,
    scenario: pick(rnd, SCENARIOS),
    target_count: Math.floor(rnd() * 50),
    notes: rnd() < 0.2 ? 'hand-tuned slot; check the audit keys before generating' : '',
  };
}

/** Appends `count` slots to an open workspace in one transaction. */
export function fillSlots(db: Db, count: number, seed = 42): void {
  const repo = slotsWriter(writeHandle(db));
  const rnd = prng(seed);
  const now = '2026-03-01T09:00:00.000Z';
  db.transaction(() => {
    for (let i = 0; i < count; i++) repo.insertOnly(makeSlot(rnd), now);
  })();
}

export type BenchWorkspace = { core: Core; file: string; dir: string; close(): Promise<void> };

/**
 * A new workspace (created and migrated by createCore), then `slots` more rows written through a
 * second connection — the way a job worker writes. The core's own connection sees them after commit.
 */
export function benchWorkspace(o: { slots?: number; seedDemo?: boolean; prefix?: string } = {}): BenchWorkspace {
  const tmp = tempDir(o.prefix ?? 'coworkenv-bench-');
  const file = path.join(tmp.dir, 'bench.coworkenv.db');
  const core = createCore({ workspacePath: file, seedDemo: o.seedDemo ?? false, watchIntervalMs: 0 });
  if (o.slots) {
    const db = openDb(file);
    try {
      fillSlots(db, o.slots);
    } finally {
      db.close();
    }
  }
  return {
    core,
    file,
    dir: tmp.dir,
    async close() {
      await core.close();
      tmp.cleanup();
    },
  };
}
