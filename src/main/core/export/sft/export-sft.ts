import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  type ManifestFile,
  STEP_OF_REASON,
  type SftDialect,
  SftOptions,
  type SftOptionsInput,
  type SftExportResult,
} from '../../../../shared/contract/entities/export';
import { AppError } from '../../lib/errors';
import type { PyValue } from '../../py/pyjson';
import { DIALECTS, dataFileOf, loadingNotes } from './dialects';
import { openExportFolder, ioError } from './export-folder';
import { HashedFile } from './hashed-file';
import { JsonArrayPart } from './json-compose';
import { jsonLine } from './json-line';
import type { SftRecord } from './preselect';
import { RenderCheck, DEFAULT_TEMPLATE } from './render/render-check';
import { ReportBuilder } from './report';
import { rewardsOf, SchemaSources } from './schema-sources';
import { ScoreBasisTally } from './score-basis-tally';
import { type Emitted, runSelection, type SftProgress } from './sft-engine';
import { toolVersion } from './tool-version';
import type { VerlRow } from './dialects/verl.dialect';
import { VERL_LOADER_FILE, VERL_LOADER_PY, verlSftReadme } from './verl-loader';
import { writeVerlParquet } from './verl-parquet';

export type ExportSftInput = {
  /** Re-iterable: read up to three times (metadata, bodies, TRIVIAL winners). Bodies may be loaded lazily. */
  records: Iterable<SftRecord>;
  dialect: SftDialect;
  outDir: string;
  options?: SftOptionsInput;
  /** Progress per 1,000 records; throwing from it cancels the export (nothing is left behind). */
  onProgress?: (p: SftProgress) => void;
  now?: () => Date;
  /** The open workspace: an overwrite never replaces a folder that holds it (export-target.ts). */
  workspacePath?: string;
};

export type ExportSftResult = SftExportResult;

export function parseSftOptions(options: SftOptionsInput | undefined): SftOptions {
  const r = SftOptions.safeParse(options ?? {});
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  throw new AppError('INVALID_INPUT', `options.${i.path.join('.')}: ${i.message}`);
}

const sha256 = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const NEWLINE = Buffer.from('\n');

/**
 * Selects, converts, lints and writes one SFT export (formats.md §3, §6) into `outDir`: the data
 * file, rejections.jsonl, lint.json, dataset_info.json for LLaMA-Factory, the dataset class and README for
 * verl, and manifest.json last.
 * Everything is written into a temp sibling and renamed into place at the end; on any failure the
 * temp folder is removed and the error says what could not be written where.
 */
export function exportSft(input: ExportSftInput): ExportSftResult {
  const o = parseSftOptions(input.options);
  const dialect = DIALECTS[input.dialect];
  if (!dialect) throw new AppError('INVALID_INPUT', `unknown dialect ${String(input.dialect)}`);
  const problems = dialect.optionProblems(o);
  if (problems.length) throw new AppError('INVALID_INPUT', `options for ${dialect.id}: ${problems.join('; ')}`);
  const folder = openExportFolder(input.outDir, o.overwrite, input.workspacePath);
  const open: { abandon(): void }[] = [];
  const track = <T extends { abandon(): void }>(f: T) => (open.push(f), f);
  const at = (name: string) => path.join(folder.dir, name);
  const tool = toolVersion();
  try {
    const dataName = dataFileOf(dialect.id, o.datasetName);
    const data = track(new HashedFile(at(dataName)));
    const rejections = track(new HashedFile(at('rejections.jsonl')));
    const lint = track(new JsonArrayPart(at('.lint.part')));
    const entries = track(new JsonArrayPart(at('.records.part')));
    const report = new ReportBuilder();
    const schemas = new SchemaSources();
    const bases = new ScoreBasisTally();
    const render = renderCheckFor(dialect.id, o);
    const checkRendered = (e: Emitted<unknown>, row: unknown) => {
      if (!render) return;
      for (const i of render.check(e.light.id, row)) {
        const f = { recordId: e.light.id, ...i };
        report.lint(f);
        lint.push(f);
      }
    };
    const rows = runSelection(input.records, dialect, o, report, {
      onReject: (l, reason, detail) =>
        rejections.write(
          `${JSON.stringify({
            record_id: l.id,
            task_id: l.taskId,
            trial: l.trial,
            step: STEP_OF_REASON[reason],
            reason,
            detail,
          })}\n`,
        ),
      onLint: (f) => lint.push(f),
      onProgress: input.onProgress,
    });
    const entry = (e: Emitted<unknown>, hash: string) => {
      bases.add(e.light.collection, e.record.lineage);
      entries.push({
        recordId: e.light.id,
        trajectoryId: e.trajectoryId,
        taskId: e.light.taskId,
        trial: e.light.trial,
        file: dataName,
        index: entries.count,
        sha256: hash,
        lineage: e.record.lineage ?? {},
        schemas: schemas.idOf(e.view.schemas),
      });
    };
    if (dialect.id === 'verl') {
      const pulled = (function* () {
        for (const e of rows) {
          const json = JSON.stringify(e.row);
          entry(e, sha256(json));
          checkRendered(e, e.row);
          yield { row: e.row as VerlRow, bytes: json.length };
        }
      })();
      writeVerlParquet(data, pulled, o, `${tool.name} ${tool.version}`);
    } else
      for (const e of rows) {
        // Encoded once: the same bytes are hashed for the record and appended to the (hashed) file.
        const text = jsonLine(e.row as PyValue);
        const line = Buffer.from(text, 'utf8');
        data.write(line);
        data.write(NEWLINE);
        entry(e, sha256(line));
        // Rendered as the trainer reads it back (plain JSON: a float 1.0 is the number 1 there too).
        if (render) checkRendered(e, JSON.parse(text));
      }
    const built = { ...report.build(dialect.id), ...(render ? { render: render.summary() } : {}) };
    const files: ManifestFile[] = [
      { path: dataName, ...data.close(), rows: built.exported },
      { path: 'rejections.jsonl', ...rejections.close(), rows: built.rejected },
    ];
    if (dialect.id === 'llamafactory') {
      const info = new HashedFile(at('dataset_info.json'));
      track(info).write(`${JSON.stringify(datasetInfo(o.datasetName, dataName), null, 2)}\n`);
      files.push({ path: 'dataset_info.json', ...info.close(), rows: null });
    }
    if (dialect.id === 'verl')
      // The dataset class that decodes the JSON-string arguments, and the command that names it (verl-loader.ts).
      for (const [name, text] of [
        [VERL_LOADER_FILE, VERL_LOADER_PY],
        ['README.md', verlSftReadme(built.exported)],
      ] as const) {
        const f = track(new HashedFile(at(name)));
        f.write(text);
        files.push({ path: name, ...f.close(), rows: null });
      }
    const findings = lint.count;
    files.push({
      path: 'lint.json',
      ...lint.compose(at('lint.json'), { summary: built.lint }, 'findings'),
      rows: findings,
    });
    const { overwrite: _o, ...recorded } = o;
    const head = {
      format: 'coworkenv-sft-export',
      formatVersion: 1,
      tool,
      createdAt: (input.now?.() ?? new Date()).toISOString(),
      dialect: dialect.id,
      loading: loadingNotes(dialect.id, o),
      options: recorded,
      report: built,
      files,
      toolSchemas: schemas.list(),
      rewards: rewardsOf(report.pools, o, built.retained.withoutReward),
      scoreBasis: bases.list(),
    };
    const manifest = entries.compose(at('manifest.json'), head, 'records');
    folder.commit();
    return { outDir: path.resolve(input.outDir), report: built, files, manifestSha256: manifest.sha256 };
  } catch (e) {
    for (const f of open) f.abandon();
    folder.abort();
    throw ioError('write the export to', path.resolve(input.outDir), e);
  }
}

/** The render check an export runs (null: options.renderCheck false). */
function renderCheckFor(d: SftDialect, o: SftOptions): RenderCheck | null {
  return o.renderCheck ? new RenderCheck(d, o.chatTemplate ?? DEFAULT_TEMPLATE[d], o.lengthBudget) : null;
}

/** The dataset_info.json entry LLaMA-Factory needs (§3.3): sharegpt, our columns, its default tags spelled out. */
export function datasetInfo(name: string, file: string) {
  return {
    [name]: {
      file_name: file,
      formatting: 'sharegpt',
      columns: { messages: 'conversations', system: 'system', tools: 'tools' },
      tags: {
        role_tag: 'from',
        content_tag: 'value',
        user_tag: 'human',
        assistant_tag: 'gpt',
        observation_tag: 'observation',
        function_tag: 'function_call',
        system_tag: 'system',
      },
    },
  };
}
