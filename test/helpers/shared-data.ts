import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the tests find real data written by others (Claw-Eval tasks, its services' recorded answers, τ-bench and
 * τ²-bench files). First `COWORKENV_SHARED` when it names a folder (a git worktree sits one level deeper than the
 * main checkout), then ../shared beside the repository, else the subset shipped in test/fixtures/corpus: a clone
 * alone runs the tests too. `COWORKENV_SHARED=none` (or any path that does not exist) runs them as a bare clone
 * does. No imports from src: the Playwright tests use this file too.
 */
const REPO_ROOT = path.resolve(__dirname, '../..');
export const SHIPPED = path.join(REPO_ROOT, 'test/fixtures/corpus');

function resolveShared(): string {
  const set = process.env.COWORKENV_SHARED;
  if (set === 'none') return SHIPPED;
  const dir = set ? path.resolve(set) : path.resolve(REPO_ROOT, '../shared');
  return fs.existsSync(dir) ? dir : SHIPPED;
}

export const SHARED = resolveShared();

/**
 * The full corpora, not the shipped subset. A test that asserts a figure of the whole corpus (1,232 recorded calls,
 * 44 tasks, 200 τ-bench records) keeps that figure here; on the subset it counts what is there instead.
 */
export const FULL_DATA = SHARED !== SHIPPED;

/** Said in the title of a test that runs only on the full corpora. */
export const FULL_ONLY = FULL_DATA ? '' : ' (skipped: needs the full corpora in ../shared)';

/** `documented` on the full corpora, else what the test counted in the subset (computed only then). */
export const figure = (documented: number, counted: () => number): number => (FULL_DATA ? documented : counted());

export const CLAW_ROOT = path.join(SHARED, 'corpora/claw-eval');
export const CLAW_TASKS = path.join(CLAW_ROOT, 'tasks');

/** The Claw-Eval task folders present, sorted (T001–T044 on the full corpus). */
export const clawTaskIds = (): string[] =>
  fs.existsSync(CLAW_TASKS)
    ? fs
        .readdirSync(CLAW_TASKS)
        .filter((d) => !d.startsWith('.'))
        .sort()
    : [];

/** A Claw-Eval task folder is present (always on the full corpus). */
export const hasTask = (id: string): boolean => fs.existsSync(path.join(CLAW_TASKS, id, 'task.yaml'));

/**
 * Upstream's own Claw-Eval checkout (claw-eval/claw-eval at 9365e1a: src/claw_eval and each task's
 * tasks/<id>/grader.py), for the tests that compare the app with upstream's graders. Never shipped (the app ships no
 * upstream code): first `CLAW_EVAL_ROOT` (or the older `COWORKENV_CLAW_EVAL`), then `claw-eval-9365e1a` beside the
 * repository (as ../shared sits), else null — those tests then skip with a one-line reason.
 */
function resolveClawCheckout(): string | null {
  const set = process.env.CLAW_EVAL_ROOT ?? process.env.COWORKENV_CLAW_EVAL;
  const candidates = set ? [path.resolve(set)] : [path.resolve(REPO_ROOT, '../claw-eval-9365e1a')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'src/claw_eval'))) ?? null;
}

export const CLAW_CHECKOUT = resolveClawCheckout();
