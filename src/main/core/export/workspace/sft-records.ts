import type { AdmittableBucket } from '../../../../shared/contract/entities/export';
import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { SftSelection } from '../../../../shared/contract/export.contract';
import type { ReadDb } from '../../db/sqlite';
import { redactValue } from '../../lib/redact';
import { attemptSetOf } from '../../trajectories/attempt-set';
import { gradableRun } from '../../trajectories/stored-grade';
import { ContextCache, loadTrajectory } from '../../trajectories/load-trajectory';
import { trajectoriesRepo } from '../../trajectories/trajectories.repo';
import { tasksRepo } from '../../tasks/tasks.repo';
import { storedTaskSpec } from '../../tasks/task-spec-of';
import { openAiTool } from '../rl/package-tasks';
import { gradeAcrossRedaction, RedactionChangedGrade } from '../redaction-grade';
import type { SftRecord } from '../sft';
import type { SelfSelecting } from '../sft/preselected';
import { bucketOf, type RecordRow as Row, workspaceRows } from './fed-rows';
import { sqlPreselected } from './sft-selection';
import { SCHEMA_SOURCE_KEY } from '../sft/tool-schemas';
import { type GivenTools, importTools } from './import-tools';

/** What redaction replaced, per record (set, not added: a TRIVIAL winner's body is loaded twice). */
export class RedactionTally {
  readonly perRecord = new Map<string, Record<string, number>>();
  summary() {
    const byRule: Record<string, number> = {};
    let total = 0;
    for (const counts of this.perRecord.values())
      for (const [k, n] of Object.entries(counts)) {
        byRule[k] = (byRule[k] ?? 0) + n;
        total += n;
      }
    return { records: this.perRecord.size, total, byRule };
  }
}

/**
 * Tool lists found to hold nothing to redact, by their JSON text. The records of one source carry the
 * same list (a τ² header's tool_defs in each of thousands of trajectories), and walking it was about a
 * quarter of redacting a τ² trajectory. Only clean lists are remembered, so what gets redacted never
 * depends on this; a few lists at most (cleared past 64).
 */
export class CleanTools {
  private readonly known = new Set<string>();
  has(tools: Trajectory['tools']): boolean {
    const text = JSON.stringify(tools);
    if (this.known.has(text)) return true;
    if (redactValue(tools, { path: 'tools' }).report.total) return false;
    if (this.known.size >= 64) this.known.clear();
    this.known.add(text);
    return true;
  }
}

/** redactValue(t), skipping a tool list known to be clean (redaction reads each string with its key only). */
function redactTrajectory(t: Trajectory, clean: CleanTools | undefined) {
  if (!clean || !t.tools.length || !clean.has(t.tools)) return redactValue(t);
  const r = redactValue({ ...t, tools: [] });
  return { value: { ...r.value, tools: t.tools }, report: r.report };
}

/**
 * A stored trajectory as exports take it: the canonical Trajectory with every credential-shaped
 * string redacted (lib/redact.ts, no allow-list: planted fixture credentials such as Claw-Eval
 * T027/T028's leave the workspace as [REDACTED:…] too), and the workspace task id. An export of many
 * records passes one `contexts` (each source's header parsed once) and one `clean`.
 */
export function exportTrajectory(...args: Parameters<typeof exportRollout>): Trajectory {
  return exportRollout(...args).trajectory;
}

/**
 * exportTrajectory's redacted trajectory and the same trajectory before redaction (null when redaction replaced
 * nothing), for exports that grade it: the grade must be the stored trajectory's, never the redacted text's.
 */
export function exportRollout(
  db: ReadDb,
  id: number,
  tally?: RedactionTally,
  toolsOf: (taskId: string) => Trajectory['tools'] = taskTools(db),
  givenOf: (runId: number | null) => GivenTools | null = importTools(db),
  contexts?: ContextCache,
  clean?: CleanTools,
): { trajectory: Trajectory; unredacted: Trajectory | null } {
  const repo = trajectoriesRepo(db);
  const row = repo.row(id);
  const body = repo.body(id);
  if (!row || !body) throw new Error(`trajectory ${id} disappeared during the export`);
  const loaded = loadTrajectory(db, row.source_format, body, contexts);
  // No schemas of its own (τ-bench, τ²'s tool_defs: null, Claw-Eval traces): the tools file its import was given,
  // else the workspace task it is graded against; the manifest says which (metadata.tool_schemas_source).
  const given = loaded.tools.length ? null : (givenOf(row.run_id) ?? taskGiven(row, toolsOf));
  // The task key (task-key.ts) is the exported task id; the source's own id and its qualifier go with it.
  const metadata = {
    ...loaded.metadata,
    ...(row.task_source === null ? {} : { source_task_id: row.source_task_id, task_source: row.task_source }),
    ...(given ? { [SCHEMA_SOURCE_KEY]: given.source } : {}),
  };
  const t = { ...loaded, task_id: row.task_id, tools: given ? given.tools : loaded.tools, metadata };
  const { value, report } = redactTrajectory(t, clean);
  if (report.total && tally) tally.perRecord.set(String(id), report.byRule);
  return { trajectory: value, unredacted: report.total ? t : null };
}

function taskGiven(row: { external: boolean; task_id: string }, toolsOf: (taskId: string) => Trajectory['tools']) {
  const tools = row.external ? [] : toolsOf(row.task_id);
  return tools.length ? { tools, source: { origin: 'task' as const } } : null;
}

/** The OpenAI tool list of a workspace task (memoised per task; [] when the task is not stored). */
export function taskTools(db: ReadDb): (taskId: string) => Trajectory['tools'] {
  const repo = tasksRepo(db);
  const cache = new Map<string, Trajectory['tools']>();
  return (taskId) => {
    let tools = cache.get(taskId);
    if (!tools) {
      tools = repo.get(taskId) ? storedTaskSpec(repo, taskId).spec.tools.map(openAiTool) : [];
      cache.set(taskId, tools);
    }
    return tools;
  };
}

/** The spec of a workspace task (memoised per task; null when the task is not stored). */
function taskSpecs(db: ReadDb): (taskId: string) => TaskSpec | null {
  const repo = tasksRepo(db);
  const cache = new Map<string, TaskSpec | null>();
  return (taskId) => {
    if (!cache.has(taskId)) cache.set(taskId, repo.get(taskId) ? storedTaskSpec(repo, taskId).spec : null);
    return cache.get(taskId)!;
  };
}

/**
 * The redacted trajectory of an SFT record, refused (RedactionChangedGrade, a rejection reason) when its stored
 * copy and its redacted text grade differently against its task: an SFT row teaches what its text shows, and a
 * leak redacted away shows a safe reply where the stored grade says unsafe. Rejected, not flagged: SFT rows carry
 * no grade a trainer reads, so a flag would not stop the imitation. External rows have no task of ours to grade.
 */
function checkedBody(load: () => { trajectory: Trajectory; unredacted: Trajectory | null }, spec: TaskSpec | null) {
  const { trajectory, unredacted } = load();
  if (unredacted && spec) {
    // gradableRun: the trajectory as import graded it, so an unchanged text re-grades to the stored grade.
    const { change } = gradeAcrossRedaction(spec, gradableRun(trajectory), gradableRun(unredacted));
    if (change) throw new RedactionChangedGrade(change);
  }
  return trajectory;
}

/** The admitted buckets of a selection: UNBUCKETED joins them with allUncurated. */
export const admittedOf = (s: SftSelection): AdmittableBucket[] =>
  s.allUncurated && !s.admittedBuckets.includes('UNBUCKETED')
    ? [...s.admittedBuckets, 'UNBUCKETED']
    : s.admittedBuckets;

/**
 * The SFT records of the workspace (fed-rows.ts workspaceRows). They decide §6.5 steps 1–3 in SQL when the core asks
 * (`preselect`, sft-selection.ts: nothing kept per record); iterated, they are plain records (the JS path).
 */
export function workspaceSftRecords(db: ReadDb, s: SftSelection, tally: RedactionTally): SelfSelecting {
  const toolsOf = taskTools(db);
  const givenOf = importTools(db);
  const contexts = new ContextCache(db);
  const clean = new CleanTools();
  const specOf = taskSpecs(db);
  const recordOf = (r: Row): SftRecord => ({
    recordId: String(r.id),
    // The task key: τ-bench's and τ²-bench's ids already carry their benchmark and domain (task-key.ts).
    taskId: r.task_id,
    trial: r.trial,
    collectionId: r.collection,
    attemptSet: attemptSetOf(r),
    supersedesCollections: r.supersedes ? (JSON.parse(r.supersedes) as string[]) : [],
    // The score of record per the collection's basis (trajectories/score-basis.ts), as curation counts it.
    reward: r.record_score,
    completion: r.record_completion,
    judgePending: r.judge_pending === 1,
    pool: r.pool,
    bucket: bucketOf(r),
    includeOverride: r.include_override,
    valid: r.valid === 1 && r.error === null,
    lineage: {
      slotId: r.slot_id,
      taskVersion: r.task_version,
      runId: r.run_id,
      trajectoryId: r.id,
      collection: r.collection,
      agent: r.agent,
      model: r.model,
      sourceTaskId: r.source_task_id,
      taskSource: r.task_source,
      bucketDecision: { bucket: r.bucket, includeOverride: r.include_override },
      scoreBasis: r.score_basis,
      disagrees: r.disagrees === null ? null : r.disagrees === 1,
    },
    trajectory: () =>
      checkedBody(
        () => exportRollout(db, r.id, tally, toolsOf, givenOf, contexts, clean),
        r.external ? null : specOf(r.task_id),
      ),
  });
  const rows = workspaceRows(db, s);
  return {
    *[Symbol.iterator]() {
      for (const r of rows()) yield recordOf(r);
    },
    preselect: (o, pattern) => sqlPreselected(db, s, o, pattern, recordOf),
  };
}
