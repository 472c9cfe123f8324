import type { GridColumn } from './grid-types';
import { SetFilter, yesNo, yesNoSet } from './SetFilter';

const text = { filter: 'agTextColumnFilter', filterParams: { buttons: ['reset'], debounceMs: 250 } };
const num = { filter: 'agNumberColumnFilter', filterParams: { buttons: ['reset'], debounceMs: 250 } };
/** Few distinct values: a checkbox list with counts (SQL `in`). */
const set = { filter: SetFilter };
const score = (p: { value?: number | null }) => (p.value === null || p.value === undefined ? '' : p.value.toFixed(4));
const flag = (p: { value?: boolean | null }) => yesNo(p.value);

/**
 * Trajectories grid columns: sort and filter run in SQL (indexed ones: task, run, collection,
 * agent, model, score, source reward, disagrees, created; bucket is the task's, filtered through the task; see
 * TRAJECTORY_COLUMNS). "App score" is our shared grader's; "recorded score" the score of record, kept beside it.
 */
export const TRAJECTORY_GRID_COLUMNS: GridColumn<'trajectories.list'>[] = [
  { field: 'id', headerName: '#', width: 80, pinned: 'left', sort: 'asc', ...num },
  { field: 'task_id', headerName: 'Task', width: 200, pinned: 'left', ...set },
  // τ-bench and τ²-bench number tasks per domain: the benchmark/domain is part of the task's identity.
  {
    field: 'task_source',
    headerName: 'Source',
    headerTooltip: 'Benchmark and domain of τ-bench / τ²-bench records; blank for workspace tasks',
    width: 140,
    ...set,
  },
  {
    field: 'score',
    headerName: 'App score',
    headerTooltip: "The app's current grade (blank while a judge is pending); the score of record is Recorded score",
    width: 100,
    valueFormatter: score,
    ...num,
    cellClass: (p) =>
      p.data?.passed ? 'status-cell status-valid' : p.data?.graded ? 'status-cell status-invalid' : '',
  },
  { field: 'passed', headerName: 'Passed', width: 90, valueFormatter: flag, ...yesNoSet },
  // Issue 18 item 3: the score of record beside the app's grade; the collection's basis says which one counts.
  {
    field: 'source_reward',
    headerName: 'Recorded score',
    headerTooltip: 'The score of record: what the source (or the run, at run time) recorded. Re-grades never change it',
    width: 125,
    valueFormatter: score,
    ...num,
  },
  {
    field: 'disagrees',
    headerName: 'Disagrees',
    headerTooltip: 'Recorded score and app score both known and different (pass differs or |Δ| > 1e-6)',
    width: 100,
    valueFormatter: flag,
    cellClass: (p) => (p.value ? 'status-cell status-warn' : ''),
    ...yesNoSet,
  },
  // Issue 19 item 6: the task's own grader.py (Grade with upstream grader.py) beside the app's reading of task.yaml.
  {
    field: 'upstream_score',
    headerName: 'Upstream score',
    headerTooltip:
      "The score of the task's own grader.py (Claw-Eval checkout); blank: not graded upstream, or it failed",
    width: 130,
    valueFormatter: score,
    ...num,
  },
  { field: 'upstream_passed', headerName: 'Upstream pass', width: 120, valueFormatter: flag, ...yesNoSet },
  {
    field: 'upstream_agrees',
    headerName: 'Agrees with upstream',
    headerTooltip: "grader.py's pass/fail equals the app's current one; blank when either is unknown",
    width: 160,
    valueFormatter: flag,
    cellClass: (p) => (p.value === false ? 'status-cell status-warn' : ''),
    ...yesNoSet,
  },
  {
    field: 'upstream_error',
    headerName: 'Upstream error',
    headerTooltip: 'Why grader.py gave no score: the stage, the file and the reason (never counted as 0)',
    width: 200,
    cellClass: (p) => (p.value ? 'status-cell status-invalid' : ''),
    ...text,
  },
  {
    field: 'judge_pending',
    headerName: 'Judge pending',
    headerTooltip: 'Checks await an LLM judge: the app score is unknown (blank), not 0 (Settings → Judge)',
    width: 120,
    valueFormatter: flag,
    cellClass: (p) => (p.value ? 'status-cell status-warn' : ''),
    ...yesNoSet,
  },
  {
    field: 'score_basis',
    headerName: 'Score basis',
    headerTooltip: 'Which score the collection counts with in curation, reports and exports: recorded or app',
    width: 110,
    ...set,
  },
  // Beside the grade it qualifies ("not graded: a call has no result", "graded against another task's checks").
  {
    field: 'warnings',
    headerName: 'Warnings',
    headerTooltip: 'Warnings the import kept (reader, grader): their text is in the viewer. 0 = none',
    width: 100,
    cellClass: (p) => (p.value ? 'status-cell status-warn' : ''),
    ...set,
  },
  { field: 'trial', headerName: 'Trial', width: 75, ...set },
  { field: 'agent', headerName: 'Agent', width: 150, ...set },
  { field: 'model', headerName: 'Model', width: 130, ...set },
  { field: 'collection', headerName: 'Collection', width: 160, ...set },
  { field: 'run_id', headerName: 'Run', width: 75, ...set },
  { field: 'completion', headerName: 'Completion', width: 110, valueFormatter: score, ...num },
  { field: 'safety', headerName: 'Safety', width: 85, ...set },
  { field: 'robustness', headerName: 'Robust.', width: 95, valueFormatter: score, ...num },
  { field: 'bucket', headerName: 'Bucket', width: 110, ...set },
  { field: 'message_count', headerName: 'Messages', width: 105, ...num },
  { field: 'tool_call_count', headerName: 'Tool calls', width: 105, ...num },
  { field: 'char_count', headerName: 'Chars', width: 95, ...num },
  { field: 'source_format', headerName: 'Format', width: 130, ...set },
  { field: 'graded', headerName: 'Graded', width: 90, valueFormatter: flag, ...yesNoSet },
  { field: 'external', headerName: 'External', width: 95, valueFormatter: flag, ...yesNoSet },
  { field: 'superseded', headerName: 'Superseded', width: 110, valueFormatter: flag, ...yesNoSet },
  { field: 'error', headerName: 'Error', width: 160, ...text },
  { field: 'created_at', headerName: 'Created', width: 170, filter: 'agDateColumnFilter' },
];
