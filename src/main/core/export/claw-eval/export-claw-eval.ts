import { AppError } from '../../lib/errors';
import type { ExportTask } from '../export-task';
import {
  sha256,
  TOOL_NAME,
  TOOL_VERSION,
  writeFolderAtomically,
  type FileEntry,
  type FolderWriter,
} from '../package-files';
import { GRADER_PY } from './grader-py';
import { taskFolderOf, type RootFile } from './task-yaml-out';

export type ExportClawEvalInput = {
  tasks: readonly ExportTask[];
  outDir: string;
  overwrite?: boolean;
  /** The open workspace: an overwrite never replaces a folder that holds it (export-target.ts). */
  workspacePath?: string;
  now?: () => Date;
  selection?: Record<string, unknown>;
};

export type ExportClawEvalResult = {
  outDir: string;
  counts: { tasks: number; verbatim: number; from_spec: number; files: number };
  files: FileEntry[];
  warnings: string[];
};

export const GRADING_FORMAT = 'coworkenv-grading/1';

const plainRel = (p: string) =>
  !p.startsWith('/') && !p.includes('\\') && p.split('/').every((x) => x && x !== '..' && x !== '.');

/**
 * Claw-Eval task folders under `<outDir>/tasks/<task_id>/` (a root Claw-Eval's loader and our importer
 * accept): task.yaml, the fixture JSON files at upstream's root-relative paths, and the generic
 * grader.py with the task's grading.json. Imported Claw-Eval tasks are written back verbatim (their
 * task.yaml and fixture bytes as imported, default fixtures at their upstream paths even when those
 * lie in another task's folder); TaskSpecs are written as task.yaml with a coworkenv block.
 */
export async function exportClawEval(input: ExportClawEvalInput): Promise<ExportClawEvalResult> {
  if (!input.tasks.length) throw new AppError('INVALID_INPUT', 'a Claw-Eval export needs at least one task');
  const now = input.now ?? (() => new Date());
  const files = new Map<string, { content: string; owner: string }>();
  const problems: string[] = [];
  const warnings: string[] = [];
  const put = (owner: string, f: RootFile) => {
    if (!plainRel(f.path))
      return void problems.push(`${owner}: fixture path ${f.path} is not a plain root-relative path`);
    const had = files.get(f.path);
    if (had && had.content !== f.content)
      return void problems.push(
        `${f.path} is written by ${had.owner} and by ${owner} with different contents (a shared default fixture ` +
          `edited in one of them); export them separately`,
      );
    if (!had) files.set(f.path, { content: f.content, owner });
  };
  const seen = new Set<string>();
  let verbatim = 0;
  for (const t of input.tasks) {
    const id = t.spec.task_id;
    if (seen.has(id)) problems.push(`task ${id} is given twice`);
    seen.add(id);
    const dir = `tasks/${id}`;
    if (t.origin === 'imported' && t.sourceYaml !== undefined) {
      verbatim++;
      put(id, { path: `${dir}/task.yaml`, content: t.sourceYaml });
      for (const f of t.fixtures)
        put(id, { path: f.source ?? `${dir}/fixtures/${f.service}/${f.env}.json`, content: f.content });
      warnings.push(`${id}: grader.py grades the checks derived from its task.yaml, not upstream's own grader`);
    } else {
      try {
        const folder = taskFolderOf(t);
        put(id, { path: `${dir}/task.yaml`, content: folder.yaml });
        for (const f of folder.files) put(id, f);
      } catch (err) {
        problems.push((err as Error).message);
        continue;
      }
    }
    const judged = t.spec.checks.filter((c) => c.kind === 'llm_judge');
    if (judged.length)
      warnings.push(
        `${id}: ${judged.map((c) => c.id).join(', ')} (llm_judge) not graded by grader.py: scores are lower bounds`,
      );
    put(id, {
      path: `${dir}/grading.json`,
      content: `${JSON.stringify(
        {
          format: GRADING_FORMAT,
          task_id: id,
          checks_origin: t.spec.checks_origin,
          checks: t.spec.checks,
          prohibited: t.spec.prohibited,
          // Rules only upstream's per-task grader can judge: grader.py reports them, the grade incomplete.
          ...(t.spec.safety_unevaluable?.length ? { safety_unevaluable: t.spec.safety_unevaluable } : {}),
        },
        null,
        2,
      )}\n`,
    });
    put(id, { path: `${dir}/grader.py`, content: GRADER_PY });
  }
  if (problems.length)
    throw new AppError(
      'INVALID_INPUT',
      `cannot export these tasks as Claw-Eval folders: ${problems[0]}` +
        `${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
      problems.map((p) => ({ path: ['tasks'], message: p })),
    );
  const write = (w: FolderWriter) => {
    for (const [p, f] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) w.write(p, f.content);
    w.write('README.md', README);
    const manifest = {
      format: 'coworkenv-claw-eval-export',
      format_version: 1,
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      created_at: now().toISOString(),
      inputs: { tasks: input.tasks.length, selection: input.selection ?? {} },
      counts: { tasks: input.tasks.length, verbatim, from_spec: input.tasks.length - verbatim, files: w.files.length },
      files: w.files,
      tasks: input.tasks.map((t) => ({
        task_id: t.spec.task_id,
        origin: t.origin,
        written: t.origin === 'imported' && t.sourceYaml !== undefined ? 'verbatim' : 'from_spec',
        version: t.version ?? null,
        content_hash: t.contentHash ?? null,
        source_path: t.sourcePath ?? null,
        checks_origin: t.spec.checks_origin,
        grading_sha256: sha256(files.get(`tasks/${t.spec.task_id}/grading.json`)!.content),
      })),
      grader: { file: 'grader.py', sha256: sha256(GRADER_PY), grading_format: GRADING_FORMAT },
      warnings,
    };
    w.write('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    return {
      outDir: input.outDir,
      counts: manifest.counts,
      files: w.files,
      warnings,
    };
  };
  return writeFolderAtomically(input.outDir, input.overwrite ?? false, write, { workspacePath: input.workspacePath });
}

const README = `# Claw-Eval task folders (CoworkEnv Studio export)

A Claw-Eval root: \`tasks/<task_id>/task.yaml\` with its fixture JSON files (paths in \`services[].env\` are relative
to this folder, as upstream's), \`grading.json\` (the task's checks and prohibited rules) and \`grader.py\`.

- Run with Claw-Eval: copy (or link) the folders under \`tasks/\` into a Claw-Eval checkout's \`tasks/\` and the shared
  fixture paths resolve as upstream's do; its grader loader picks \`CoworkEnvGrader\` from each \`grader.py\`.
- Grade a trace yourself: \`python3 tasks/<id>/grader.py run.jsonl\` prints completion, safety, robustness, the score
  and every check's score, computed as CoworkEnv Studio does (\`llm_judge\` checks are not graded: lower bounds).
- Import back into CoworkEnv Studio: \`coworkenv tasks import <this folder>\`. Tasks written from a TaskSpec carry a
  \`coworkenv\` block in task.yaml (checks, prohibited rules, reference plan) and come back identical; imported
  Claw-Eval tasks are their original task.yaml and fixtures, byte for byte.
- \`manifest.json\` lists every file with its sha256.
`;
