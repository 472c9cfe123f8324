import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import { AppError } from '../../lib/errors';
import { previewAdvantages, type Preview } from '../advantages/preview';
import type { RolloutGroupKey } from '../advantages/rollout-groups';
import {
  describeSettings,
  resolveSettings,
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
import { PYTHON_AGENT_LOOP, PYTHON_INIT, PYTHON_REWARD, PYTHON_TOOLS } from './python-verl';
import { rlReadme } from './readme';
import YAML from 'yaml';
import { nestedOverrides, PACKAGE_ENV, verlTargetText, verlTrainOverrides } from './verl-config';
import { agentLoopConfigYaml, toolConfigYaml, toolsets, verlColumns, verlRow, type Toolset } from './verl-files';
import { CHARACTER_COUNTER, verlLengths, type TextCounter, type VerlLengths } from './verl-lengths';
import { AGENT_LOOP_NAME, VERL_RELEASE } from './verl-release';
import { schemaFoldLines, verlToolSchema } from './verl-schema';
import { trainerSettings, verlExtraOverrides, verlOverridesText } from './trainer-settings';

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
  /** A method (default settings otherwise) or settings; the convention defaults by method (settings.ts). */
  advantage?: AdvantageMethod | Partial<AdvantageSettings>;
  outDir: string;
  overwrite?: boolean;
  /** The open workspace: an overwrite never replaces a folder that holds it (export-target.ts). */
  workspacePath?: string;
  /** The clock of tasks without a reference date (default: the export's time). */
  clock?: Date;
  systemPrompt?: string;
  /**
   * Measures text for the length limits: a tokenizer of the model to train (`unit: 'tokens'`). Without one the
   * limits are counted in characters and the README and manifest say so.
   */
  tokenizer?: TextCounter;
  /** verl's multi_turn.format for the model to train (default hermes: Qwen2.5 / Qwen3). */
  toolFormat?: string;
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
  const settings: AdvantageSettings = resolveSettings(input.advantage);
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
    const lengths = verlLengths(
      input.tasks.map((t, i) => ({
        task: t,
        systemPrompt: records[i]!.system_prompt,
        tools: t.spec.tools.map((x) => verlToolSchema(openAiTool(x)).tool),
      })),
      input.tokenizer ?? CHARACTER_COUNTER,
      clock,
    );
    const folds = sets.flatMap((ts) => ts.tools.flatMap((t) => verlToolSchema(t).folds));
    // The paper's RL settings as each trainer's own keys (trainer-settings.ts); verl's join the package's overrides.
    const trainer = trainerSettings(settings);
    const extra = verlExtraOverrides(trainer);
    const rowHashes = writeVerl(w, sets, records, packageId, serverUrl, lengths, input.toolFormat, extra);
    for (const [name, text] of [
      ['__init__.py', PYTHON_INIT],
      ['client.py', PYTHON_CLIENT],
      ['tools.py', PYTHON_TOOLS],
      ['agent_loop.py', PYTHON_AGENT_LOOP],
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
    if (trainer.verl) w.write('verl/trainer_overrides.txt', verlOverridesText(trainer.verl));
    if (trainer.trl) w.write('trl/grpo_config.json', `${JSON.stringify(trainer.trl.settings, null, 2)}\n`);
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
        lengths,
        toolFormat: input.toolFormat,
        schemaFolds: schemaFoldLines(folds),
        trainerFiles: { verl: trainer.verl !== null, trl: trainer.trl !== null },
        trainerOverrides: extra,
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
      trainer,
      // A group never mixes runs or agents: each rollout's key is in rollouts.jsonl (`task_id`, `group`).
      grouping: { key: ['task_id', 'run_id (collection when no run)', 'agent'], groups: preview.counts.groups },
      verl: {
        target: verlTargetText(),
        release: { ...VERL_RELEASE },
        agent_loop: {
          name: AGENT_LOOP_NAME,
          config: 'verl/agent_loop_config.yaml',
          path: 'coworkenv_verl/agent_loop.py',
        },
        reward_function: { path: 'coworkenv_verl/reward.py', name: 'compute_score' },
        package_env: PACKAGE_ENV,
        lengths,
        // Keywords verl's tool schema model drops, folded into the parameter's description (verl-schema.ts).
        schema_folds: folds,
        toolsets: sets.map((s) => ({
          id: s.id,
          parquet: `verl/${s.id}/train.parquet`,
          tool_config: `verl/${s.id}/tool_config.yaml`,
          train_overrides: `verl/${s.id}/train_overrides.yaml`,
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
  sets: Toolset[],
  records: PackageTaskRecord[],
  packageId: string,
  serverUrl: string,
  lengths: VerlLengths,
  toolFormat: string | undefined,
  extra: Record<string, string | number | boolean>,
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
    // Written as is: the ${oc.env:…} interpolations are meant for OmegaConf.
    const overrides = verlTrainOverrides({ toolsetId: ts.id, lengths, extra, ...(toolFormat ? { toolFormat } : {}) });
    w.write(
      `verl/${ts.id}/train_overrides.yaml`,
      `# verl ${VERL_RELEASE.version} overrides for ${ts.id}; ${PACKAGE_ENV} is this folder. Lengths in ` +
        `${lengths.unit} (${lengths.counter}).\n` +
        YAML.stringify(nestedOverrides(overrides), { version: '1.1', lineWidth: 0 }),
    );
  }
  w.write('verl/agent_loop_config.yaml', agentLoopConfigYaml());
  return out;
}
