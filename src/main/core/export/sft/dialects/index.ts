import type { SftDialect } from '../../../../../shared/contract/entities/export';
import { VERL_RELEASE } from '../../rl/verl-release';
import { VERL_LOADER_CLASS, VERL_LOADER_FILE } from '../verl-loader';
import type { DialectSpec } from './dialect';
import { llamafactoryDialect } from './llamafactory.dialect';
import { openaiDialect } from './openai.dialect';
import { trlDialect } from './trl.dialect';
import { verlDialect } from './verl.dialect';

export const DIALECTS: Record<SftDialect, DialectSpec<unknown>> = {
  trl: trlDialect as DialectSpec<unknown>,
  openai: openaiDialect as DialectSpec<unknown>,
  llamafactory: llamafactoryDialect as DialectSpec<unknown>,
  verl: verlDialect as DialectSpec<unknown>,
};

/** The data file each dialect writes (besides manifest.json, rejections.jsonl, lint.json). */
export function dataFileOf(d: SftDialect, datasetName: string): string {
  if (d === 'verl') return 'train.parquet';
  if (d === 'llamafactory') return `${datasetName}.jsonl`;
  return 'train.jsonl';
}

/**
 * How a row ends ([ours], changed from "cut at the last assistant message with text"): recorded in the
 * manifest, as formats.md asks of a changed convention.
 */
const ENDS_WITH_RESULTS =
  "Each row ends on the agent's last turn with its tool calls, and their recorded results (no loss on tool " +
  'messages).';
const ENDS_ON_CALLS =
  "Each row ends on the agent's last turn with its tool calls; the results after it are left out (lint " +
  'final_results_dropped).';

/** What the trainer needs to know to load the files unchanged; written into the manifest. */
export function loadingNotes(d: SftDialect, o: { datasetName: string; trlTools: 'list' | 'json-string' }): string[] {
  return [...dialectNotes(d, o), d === 'trl' || d === 'verl' ? ENDS_WITH_RESULTS : ENDS_ON_CALLS];
}

function dialectNotes(d: SftDialect, o: { datasetName: string; trlTools: 'list' | 'json-string' }): string[] {
  switch (d) {
    case 'trl':
      return [
        'SFTTrainer reads `messages` (tool_calls with object arguments, tool messages with name and tool_call_id) ' +
          'and `tools`.',
        o.trlTools === 'list'
          ? "Load with datasets >= 4.7.0: load_dataset('json', data_files='train.jsonl', " +
            "on_mixed_types='use_json'), or explicit features with messages[].tool_calls and tools as " +
            'List(Json()); older datasets null-fill arguments whose keys differ (use trlTools: json-string there).'
          : 'tools is one JSON string per row (TRL accepts it since trl PR #5118); arguments are still objects: ' +
            'check the render on datasets < 4.7.0.',
        'Assistant-only loss needs a chat template with generation markers (SFTConfig(assistant_only_loss=True)).',
      ];
    case 'openai':
      return [
        'Upload train.jsonl as is: arguments are the verbatim JSON strings the model emitted; tool messages carry ' +
          'no name.',
        'parallel_tool_calls is set per row: true exactly when that row makes parallel calls.',
      ];
    case 'llamafactory':
      return [
        `Set dataset_dir to this folder and dataset: ${o.datasetName} (dataset_info.json: formatting sharegpt, ` +
          `columns conversations/system/tools, default tags).`,
        'function_call values are JSON {"name", "arguments": object} (a list for parallel calls); parallel results ' +
          'are one observation.',
      ];
    case 'verl':
      return [
        `verl ${VERL_RELEASE.version}: data.messages_key=messages data.tools_key=tools ` +
          `data.custom_cls.path=${VERL_LOADER_FILE} data.custom_cls.name=${VERL_LOADER_CLASS} (README.md: the ` +
          'whole command).',
        `${VERL_LOADER_CLASS} is MultiTurnSFTDataset decoding every messages[].tool_calls[].function.arguments ` +
          'and tools[].function.parameters before apply_chat_template: they are JSON strings, so heterogeneous ' +
          'objects survive parquet (verl#4112); undecoded, the chat template renders them as escaped strings.',
        'Message fields a message does not use (tool_calls, tool_call_id, name) read back as null.',
        'Set data.max_length and truncation for long agent trajectories (defaults 1024 and "error").',
      ];
  }
}
