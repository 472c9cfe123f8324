import { VERL_RELEASE } from '../rl/verl-release';

/**
 * The small dataset class a verl SFT export ships beside train.parquet, and the trainer command that names it.
 *
 * Why a loader and not objects in the parquet: a parquet struct column has one key set, so storing arguments
 * as structs would give every call the union of every tool's argument keys, null-filled, and a key holding a
 * string in one call and a list in another has no common type at all (verl#4112). The only consistent schema
 * is a JSON string. verl v0.9.0's MultiTurnSFTDataset passes those strings to apply_chat_template unchanged,
 * and Qwen2.5's template (`arguments | tojson`) then trains the model to emit escaped strings. v0.9.0 loads a
 * dataset class named by `data.custom_cls.path` / `.name` (sft_trainer.create_sft_dataset), so the export
 * writes a subclass that decodes both before the template sees them.
 *
 * Override points, read at v0.9.0 (verl/utils/dataset/multiturn_sft_dataset.py): `_read_files_and_process`
 * fills `self.tools` (one list per row, passed with the first message and to the whole-conversation check);
 * `_build_messages(example)` builds each row's messages afresh on every `__getitem__`.
 */
export const VERL_LOADER_FILE = 'coworkenv_sft_dataset.py';
export const VERL_LOADER_CLASS = 'CoworkEnvSFTDataset';

export const VERL_LOADER_PY = `"""verl ${VERL_RELEASE.version} SFT dataset for a CoworkEnv Studio export.

train.parquet stores every tool call's arguments and every tool's parameters as JSON strings: a parquet
struct has one fixed key set, so objects whose keys differ from call to call would read back null-filled
(verl#4112). verl's MultiTurnSFTDataset hands them to the chat template as they are, which renders them as
escaped strings. This subclass decodes both into objects first. Select it with
    data.custom_cls.path=<this file> data.custom_cls.name=${VERL_LOADER_CLASS}
(see README.md beside it for the whole command).
"""
from json import JSONDecodeError, loads

try:
    from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset
except ImportError:  # outside verl: the decoders below still import and run
    MultiTurnSFTDataset = object

VERL_VERSION = "${VERL_RELEASE.version}"


class DecodeError(ValueError):
    """A value that should hold a JSON object does not; the message names the row and the field."""


def decode_json_object(value, where):
    if not isinstance(value, str):  # already decoded (a row built by hand): left as it is
        return value
    try:
        decoded = loads(value)
    except JSONDecodeError as e:
        raise DecodeError(f"{where} is not JSON: {e}") from None
    if not isinstance(decoded, dict):
        raise DecodeError(f"{where} is not a JSON object")
    return decoded


def decode_messages(messages):
    """messages[].tool_calls[].function.arguments: JSON strings to objects, in place; answers messages."""
    for i, message in enumerate(messages):
        for j, call in enumerate(message.get("tool_calls") or []):
            function = call.get("function") or {}
            if "arguments" in function:
                where = f"messages[{i}].tool_calls[{j}].function.arguments"
                function["arguments"] = decode_json_object(function["arguments"], where)
    return messages


def decode_tools(tools):
    """tools[].function.parameters: JSON strings to objects, in place; answers tools."""
    for i, tool in enumerate(tools or []):
        function = tool.get("function") or {}
        if "parameters" in function:
            where = f"tools[{i}].function.parameters"
            function["parameters"] = decode_json_object(function["parameters"], where)
    return tools


class ${VERL_LOADER_CLASS}(MultiTurnSFTDataset):
    """MultiTurnSFTDataset whose rows reach apply_chat_template with object arguments and parameters."""

    def _read_files_and_process(self):
        super()._read_files_and_process()
        if self.tools is not None:
            for row, tools in enumerate(self.tools):
                try:
                    decode_tools(tools)
                except DecodeError as e:
                    raise DecodeError(f"dataset row {row}: {e}") from None

    def _build_messages(self, example):
        # Called by __getitem__ on a fresh copy of the row, so decoding in place never decodes twice.
        return decode_messages(super()._build_messages(example))

    def __getitem__(self, item):
        try:
            return super().__getitem__(item)
        except DecodeError as e:
            raise DecodeError(f"dataset row {item}: {e}") from None
`;

/** Shell lines of the v0.9.0 SFT trainer run over this folder (multi-turn keys are top-level `data.*` there). */
export function verlTrainCommand(): string {
  return [
    '# from this folder; MODEL_PATH, NPROC and MAX_LENGTH (tokens) are yours to set',
    `torchrun --nnodes=1 --nproc_per_node=\${NPROC:-1} -m verl.trainer.sft_trainer \\`,
    '  data.train_files=$PWD/train.parquet \\',
    '  data.messages_key=messages \\',
    '  data.tools_key=tools \\',
    `  data.custom_cls.path=$PWD/${VERL_LOADER_FILE} \\`,
    `  data.custom_cls.name=${VERL_LOADER_CLASS} \\`,
    `  data.max_length=\${MAX_LENGTH:-32768} \\`,
    '  data.truncation=error \\',
    `  model.path=\${MODEL_PATH:-Qwen/Qwen2.5-7B-Instruct}`,
  ].join('\n');
}

/** The export folder's README for verl: what is in it and the command that loads it. */
export function verlSftReadme(rows: number): string {
  return `# verl SFT export (CoworkEnv Studio)

For verl ${VERL_RELEASE.version} (\`${VERL_RELEASE.pip}\`): ${rows} rows for its multi-turn SFT trainer.

| file | what |
| --- | --- |
| \`train.parquet\` | \`messages\` (OpenAI shape, with tool calls and results) and \`tools\`, nested parquet types |
| \`${VERL_LOADER_FILE}\` | \`${VERL_LOADER_CLASS}\`, verl's \`MultiTurnSFTDataset\` plus JSON decoding (below) |
| \`manifest.json\` | options, counts, per-record ids and hashes; \`loading\` repeats these instructions |
| \`rejections.jsonl\`, \`lint.json\` | records left out and why; lint findings |

## Train

\`\`\`sh
${verlTrainCommand()}
\`\`\`

Tool-call \`arguments\` and tool \`parameters\` are stored as JSON strings: a parquet struct has one key set per
column, so objects whose keys differ from call to call would come back null-filled (verl#4112). verl's own
dataset would pass the strings to the chat template, which renders them escaped (\`"arguments": "{\\"id\\": …}"\`).
\`${VERL_LOADER_CLASS}\` decodes both before the template, so the model learns \`"arguments": {"id": …}\`; a value
that is not a JSON object stops the run with the dataset row and field.

verl tokenises each message on its own and checks the concatenation against a render of the whole conversation.
Templates that join consecutive tool results into one block (Qwen2.5 does) fail that check on rows with parallel
calls: add \`data.ignore_input_ids_mismatch=True\` to train on the per-message render. Agent trajectories are long:
set \`data.max_length\` above your longest row, or \`data.truncation=right\`.

Check the folder with \`coworkenv export lint <this folder>\` (it re-reads train.parquet).
`;
}
