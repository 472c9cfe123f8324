import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import { AppError } from '../../lib/errors';
import { previewAdvantages, type Preview } from '../advantages/preview';
import type { RolloutGroupKey } from '../advantages/rollout-groups';
import {
  DEFAULT_ADVANTAGE_SETTINGS,
  describeSettings,
  type AdvantageMethod,
  type AdvantageSettings,
} from '../advantages/settings';
import { freshEnvironment, taskClock, type ExportTask } from '../export-task';
import {
  jsonText,
  sha256,
  TOOL_NAME,
  TOOL_VERSION,
  writeFolderAtomically,
  type FileEntry,
  type FolderWriter,
} from '../package-files';
import { writeParquet } from './parquet-schema';
import {
  openAiTool,
  packageFixtures,
  recordCount,
  specWithoutRecords,
  systemPromptOf,
  verlToolProblems,
} from './package-tasks';
import {
  DEFAULT_ENV_PORT,
  ENV_PROTOCOL,
  RL_PACKAGE_FORMAT,
  RL_PACKAGE_VERSION,
  type PackageTaskRecord,
} from './package-record';
import { PYTHON_CLIENT } from './python-client';
import { PYTHON_INIT, PYTHON_INTERACTIONS, PYTHON_REWARD, PYTHON_TOOLS } from './python-verl';
import { rlReadme } from './readme';
import { interactionConfigYaml, toolConfigYaml, toolsets, verlColumns, verlRow } from './verl-files';

export type ExportRlInput = {
  tasks: readonly ExportTask[];
  rollouts?: readonly Trajectory[];
  /**
   * Each rollout as stored, before redaction (null: redaction replaced nothing): graded in its place so the reward
   * and `grader` are the rollout's own grade, never a re-grade of the redacted text. Never written.
   */
  unredacted?: readonly (Trajectory | null)[];
  /** Each rollout's run (or collection) and agent, which with its task key its group (default: its model). */
  groups?: readonly RolloutGroupKey[];
  /** A method (default settings otherwise) or settings. */
  advantage?: AdvantageMethod | Partial<AdvantageSettings>;
  outDir: string;
  overwrite?: boolean;
  /** The open workspace: an overwrite never replaces a folder that holds it (export-target.ts). */
  workspacePath?: string;
  /** The clock of tasks without a reference date (default: the export's time). */
  clock?: Date;
  systemPrompt?: string;
  /** What the tool YAML and the Python code call by default (COWORKENV_ENV_URL overrides it). */
  serverUrl?: string;
  now?: () => Date;
  /** What the caller selected (filters, collections, run ids), recorded as is in the manifest. */
  selection?: Record<string, unknown>;
};

export type ExportRlResult = {
  outDir: string;
  packageId: string;
  counts: { tasks: number; rollouts: number; toolsets: number; fixtures: number };
  files: FileEntry[];
  preview: Preview;
};

const settingsOf = (a: ExportRlInput['advantage']): AdvantageSettings =>
  typeof a === 'string' ? { ...DEFAULT_ADVANTAGE_SETTINGS, method: a } : { ...DEFAULT_ADVANTAGE_SETTINGS, ...a };

/** Agent-view messages for the rollout file: the canonical shape without `meta` (never exported, formats.md §1.1). */
const messagesOf = (t: Trajectory) => t.messages.map(({ meta: _meta, ...m }) => m);

/**
 * The RL package (DESIGN.md §9): tasks with fixtures, tool schemas and checks; verl RL parquet with
 * its tool and interaction YAML; the Python side (tool, interaction, reward); rollouts with group
 * advantages; the preview; a README with the env-server protocol; a manifest with every file's
 * sha256, per-record hashes and lineage. Written to a temporary sibling folder, renamed at the end.
 */
export async function exportRlPackage(input: ExportRlInput): Promise<ExportRlResult> {
  const now = input.now ?? (() => new Date());
  const clock = input.clock ?? now();
  const settings = settingsOf(input.advantage);
  const serverUrl = input.serverUrl ?? `http://127.0.0.1:${DEFAULT_ENV_PORT}`;
  const rollouts = input.rollouts ?? [];
  if (!input.tasks.length) throw new AppError('INVALID_INPUT', 'an RL package needs at least one task');
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const t of input.tasks) {
    if (seen.has(t.spec.task_id)) problems.push(`task ${t.spec.task_id} is given twice`);
    seen.add(t.spec.task_id);
    problems.push(...verlToolProblems(t.spec));
    try {
      freshEnvironment(t, taskClock(t.spec, clock));
    } catch (err) {
      problems.push(`${t.spec.task_id}: its environment cannot be built: ${(err as Error).message}`);
    }
  }
  if (problems.length)
    throw new AppError(
      'INVALID_INPUT',
      `cannot export these tasks as an RL package: ${problems[0]}` +
        `${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
      problems.map((p) => ({ path: ['tasks'], message: p })),
    );
  const clockOf = (t: ExportTask) => taskClock(t.spec, clock);
  const { preview, computed } = previewAdvantages({
    tasks: input.tasks,
    rollouts,
    settings,
    clockOf,
    ...(input.groups ? { groups: input.groups } : {}),
    ...(input.unredacted ? { unredacted: input.unredacted } : {}),
  });
  const changedByRedaction = computed.rollouts.flatMap((r) =>
    r.redaction_changed_grade ? [{ trajectory_id: r.trajectory_id, checks: r.redaction_changed_grade.checks }] : [],
  );

  const write = (w: FolderWriter) => {
    const records: PackageTaskRecord[] = [];
    let fixtureCount = 0;
    for (const t of input.tasks) {
      const fixtures = packageFixtures(t).map((f) => {
        const entry = w.write(f.path, f.content);
        fixtureCount++;
        return {
          service: f.service,
          env: f.env,
          path: f.path,
          inline: f.inline,
          sha256: entry.sha256,
          records: recordCount(f),
        };
      });
      const s = t.spec;
      records.push({
        task_id: s.task_id,
        task_name: s.task_name,
        origin: t.origin,
        version: t.version ?? null,
        content_hash: t.contentHash ?? null,
        clock: clockOf(t).toISOString(),
        spec: specWithoutRecords(s),
        fixtures,
        tools: s.tools.map(openAiTool),
        system_prompt: systemPromptOf(s, input.systemPrompt),
        checks_origin: s.checks_origin,
        notes: t.notes ?? [],
        lineage: {
          slot_id: s.slot_id ?? null,
          scenario: s.scenario ?? null,
          reference_date: s.reference_date ?? null,
          source_path: t.sourcePath ?? null,
        },
      });
    }
    const tasksFile = w.writeJsonl('tasks.jsonl', records);
    const packageId = tasksFile.entry.sha256.slice(0, 16);
    const sets = toolsets(records.map((r) => ({ spec: r.spec, tools: r.spec.tools.map(openAiTool) })));
    const rowHashes = writeVerl(w, sets, records, packageId, serverUrl);
    for (const [name, text] of [
      ['__init__.py', PYTHON_INIT],
      ['client.py', PYTHON_CLIENT],
      ['tools.py', PYTHON_TOOLS],
      ['interactions.py', PYTHON_INTERACTIONS],
      ['reward.py', PYTHON_REWARD],
    ] as const)
      w.write(`coworkenv_verl/${name}`, text);
    let rolloutHashes: string[] = [];
    if (rollouts.length) {
      const lines = computed.rollouts.map((r, i) => ({
        ...r,
        model: rollouts[i]!.model,
        source: rollouts[i]!.source,
        termination: rollouts[i]!.termination,
        messages: messagesOf(rollouts[i]!),
      }));
      rolloutHashes = w.writeJsonl('rollouts.jsonl', lines).lineHashes;
    }
    w.write('preview.json', `${JSON.stringify(preview, null, 2)}\n`);
    const described = describeSettings(settings);
    w.write(
      'README.md',
      rlReadme({
        packageId,
        tasks: records.length,
        rollouts: rollouts.length,
        toolsets: sets,
        method: settings.method,
        settings: described,
      }),
    );
    const manifest = {
      format: RL_PACKAGE_FORMAT,
      format_version: RL_PACKAGE_VERSION,
      package_id: packageId,
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      created_at: now().toISOString(),
      env_protocol: ENV_PROTOCOL,
      inputs: { tasks: records.length, rollouts: rollouts.length, selection: input.selection ?? {} },
      counts: {
        tasks: records.length,
        fixtures: fixtureCount,
        toolsets: sets.length,
        rollouts: rollouts.length,
        valid_rollouts: preview.counts.valid_rollouts,
        groups: preview.counts.groups,
        no_signal_groups: preview.counts.no_signal_groups,
        flags: preview.flags.length,
        redaction_changed_grade: changedByRedaction.length,
      },
      // Rollouts whose redacted messages re-grade otherwise than their reward (kept, flagged: issue 18).
      redaction_changed_grade: changedByRedaction,
      advantage: described,
      // A group never mixes runs or agents: each rollout's key is in rollouts.jsonl (`task_id`, `group`).
      grouping: { key: ['task_id', 'run_id (collection when no run)', 'agent'], groups: preview.counts.groups },
      verl: {
        target: 'verl RL dataset (RLHFDataset, ToolAgentLoop), checked against verl-project/verl main, 2026',
        reward_function: { path: 'coworkenv_verl/reward.py', name: 'compute_score' },
        interaction_config: 'verl/interaction_config.yaml',
        toolsets: sets.map((s) => ({
          id: s.id,
          parquet: `verl/${s.id}/train.parquet`,
          tool_config: `verl/${s.id}/tool_config.yaml`,
          tasks: s.taskIds,
        })),
        server_url: serverUrl,
      },
      files: w.files,
      records: {
        tasks: records.map((r, i) => ({ task_id: r.task_id, sha256: tasksFile.lineHashes[i] })),
        verl_rows: rowHashes,
        rollouts: computed.rollouts.map((r, i) => ({ trajectory_id: r.trajectory_id, sha256: rolloutHashes[i] })),
      },
      lineage: {
        tasks: input.tasks.map((t) => ({
          task_id: t.spec.task_id,
          origin: t.origin,
          version: t.version ?? null,
          content_hash: t.contentHash ?? null,
          slot_id: t.spec.slot_id ?? null,
          source_path: t.sourcePath ?? null,
          checks_origin: t.spec.checks_origin,
        })),
        rollouts: rollouts.map((r) => ({
          trajectory_id: r.trajectory_id,
          task_id: r.task_id,
          model: r.model,
          source: r.source,
          trace_id: r.trace?.trace_id ?? null,
        })),
      },
    };
    w.write('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    return {
      outDir: input.outDir,
      packageId,
      counts: { tasks: records.length, rollouts: rollouts.length, toolsets: sets.length, fixtures: fixtureCount },
      files: w.files,
      preview,
    };
  };
  return writeFolderAtomically(input.outDir, input.overwrite ?? false, write, { workspacePath: input.workspacePath });
}

function writeVerl(
  w: FolderWriter,
  sets: ReturnType<typeof toolsets>,
  records: PackageTaskRecord[],
  packageId: string,
  serverUrl: string,
): { toolset: string; task_id: string; sha256: string }[] {
  const out: { toolset: string; task_id: string; sha256: string }[] = [];
  for (const ts of sets) {
    const rows = ts.taskIds.map((id, i) => {
      const r = records.find((x) => x.task_id === id)!;
      return verlRow(r.spec, i, ts, packageId, r.system_prompt);
    });
    rows.forEach((row, i) => out.push({ toolset: ts.id, task_id: ts.taskIds[i]!, sha256: sha256(jsonText(row)) }));
    w.write(
      `verl/${ts.id}/train.parquet`,
      writeParquet(verlColumns(ts), rows, { 'coworkenv.package_id': packageId, 'coworkenv.toolset': ts.id }),
      rows.length,
    );
    w.write(`verl/${ts.id}/tool_config.yaml`, toolConfigYaml(ts, serverUrl));
  }
  w.write('verl/interaction_config.yaml', interactionConfigYaml(serverUrl));
  return out;
}
