import { createHash } from 'node:crypto';
import path from 'node:path';
import { AppError } from '../../lib/errors';
import { FileReadError, readRegularFile } from '../../lib/read-file';
import { normaliseTools, type ToolSchema } from '../../export/sft/tool-schemas';
import { isObj } from '../formats/record-error';

/**
 * The tool schemas `trajectories import --tools FILE` applies to the records that carry none of their
 * own (τ-bench files have none; τ²-bench results have `tool_defs: null`). Stored once per import and
 * referenced from its run, so 100k trajectories cost one copy; the export names the file and its hash.
 */
export type ToolSet = { file: string; sha256: string; tools: ToolSchema[] };
/** trajectory_contexts.format of a stored ToolSet (a τ² header is 'tau2-results'). */
export const TOOL_SET_FORMAT = 'tool-set';

/** A tools file is read whole: an OpenAI tools list is kilobytes, a τ² SFT file tens of megabytes. */
const MAX_TOOLS_FILE = 256 * 1024 * 1024;

const looksLikeTool = (v: unknown) =>
  isObj(v) && !('tools' in v) && !('messages' in v) && (isObj(v.function) || typeof v.name === 'string');

/**
 * Reads FILE: an OpenAI `tools` array (JSON, wrapper or flat form), a JSON record or array of records
 * carrying `tools`, a τ²-bench results file with `info.environment_info.tool_defs`, or JSONL whose
 * lines carry `tools` (τ²-bench's own SFT files). The union by function name; one name defined two
 * different ways is refused, naming both places, never resolved by picking one.
 */
export function readToolFile(file: string): ToolSet {
  const name = path.basename(file);
  const bad = (message: string): never => {
    throw new AppError('INVALID_INPUT', `--tools ${file}: ${message}`, [{ path: ['tools'], message }]);
  };
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, MAX_TOOLS_FILE);
  } catch (e) {
    if (e instanceof FileReadError) return bad(e.message.replace(`${file}: `, ''));
    throw e;
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const lists: { where: string; tools: unknown }[] = [];
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined;
  }
  if (whole !== undefined) lists.push(...listsOfJson(whole, name, bad));
  else
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch (e) {
        bad(`line ${i + 1} is not JSON (${(e as Error).message}); expected JSON, or JSONL whose lines carry tools`);
      }
      const where = `${name} line ${i + 1}`;
      if (looksLikeTool(v)) lists.push({ where, tools: [v] });
      else if (isObj(v) && Array.isArray(v.tools)) lists.push({ where, tools: v.tools });
      else if (!isObj(v) || v.tools !== undefined)
        bad(`line ${i + 1} is neither a tool definition nor a record with a tools list`);
    });
  const byName = new Map<string, { tool: ToolSchema; key: string; where: string }>();
  for (const l of lists) {
    if (!Array.isArray(l.tools)) bad(`${l.where}: tools is not a list`);
    const r = normaliseTools(l.tools as unknown[], false);
    if (!r.ok) return bad(`${l.where}: ${r.detail}`);
    for (const tool of r.tools) {
      const key = canonical(tool);
      const seen = byName.get(tool.function.name);
      if (!seen) byName.set(tool.function.name, { tool, key, where: l.where });
      else if (seen.key !== key)
        bad(
          `tool ${tool.function.name} is defined differently in ${seen.where} and in ${l.where}; give one ` +
            'definition per name (the tools of one domain)',
        );
    }
  }
  if (!byName.size) bad('no tool definitions in it');
  return {
    file: name,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    tools: [...byName.values()].map((x) => x.tool),
  };
}

function listsOfJson(v: unknown, name: string, bad: (m: string) => never): { where: string; tools: unknown }[] {
  if (Array.isArray(v)) {
    if (v.every(looksLikeTool)) return [{ where: name, tools: v }];
    if (v.every((r) => isObj(r) && Array.isArray(r.tools)))
      return v.map((r, i) => ({ where: `${name} record ${i}`, tools: (r as { tools: unknown }).tools }));
    return bad('a JSON list that is neither tool definitions nor records carrying tools');
  }
  if (isObj(v) && Array.isArray(v.tools)) return [{ where: name, tools: v.tools }];
  const defs = isObj(v) && isObj(v.info) && isObj(v.info.environment_info) ? v.info.environment_info.tool_defs : null;
  if (Array.isArray(defs)) return [{ where: `${name} info.environment_info.tool_defs`, tools: defs }];
  return bad('expected an OpenAI tools list, records carrying tools, or JSONL of them');
}

/** The same definition written with its keys in another order is the same definition. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
