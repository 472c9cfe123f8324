import { isObject, type PyObject, type PyValue } from '../../py/pyjson';

/** A tool schema in the OpenAI wrapper form every dialect writes (formats.md §1.6). */
export type ToolSchema = {
  type: 'function';
  function: { name: string; description?: PyValue; parameters: PyObject } & PyObject;
};

export type ToolsResult = { ok: true; tools: ToolSchema[]; names: Set<string> } | { ok: false; detail: string };

/**
 * Where a trajectory's tool schemas came from, for the manifest: its own, a tools file given at import
 * (`trajectories import --tools FILE`: name and sha256 of its bytes), the workspace task it is graded
 * against, or none. Whoever fills `tools` from elsewhere says so in `metadata.tool_schemas_source`.
 */
export type SchemaOrigin =
  | { origin: 'own' }
  | { origin: 'none' }
  | { origin: 'task' }
  | { origin: 'tools-file'; file: string; sha256: string };
export const SCHEMA_SOURCE_KEY = 'tool_schemas_source';

export function schemaOriginOf(t: { tools: readonly unknown[]; metadata: Record<string, unknown> }): SchemaOrigin {
  if (!t.tools.length) return { origin: 'none' };
  const s = t.metadata[SCHEMA_SOURCE_KEY] as { origin?: unknown; file?: unknown; sha256?: unknown } | undefined;
  if (s?.origin === 'task') return { origin: 'task' };
  if (s?.origin === 'tools-file' && typeof s.file === 'string' && typeof s.sha256 === 'string')
    return { origin: 'tools-file', file: s.file, sha256: s.sha256 };
  return { origin: 'own' };
}

/**
 * The stored tools in wrapper form. The flat forms (`{name, description, parameters}`, and
 * Claw-Eval's `input_schema`) are accepted and wrapped (lossless); anything else is refused with the
 * index, never guessed at. A schema without parameters gets an empty object schema.
 */
export function normaliseTools(raw: readonly unknown[], inlineDefs: boolean): ToolsResult {
  const tools: ToolSchema[] = [];
  const names = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    if (!isObject(t as PyValue)) return { ok: false, detail: `tools[${i}] is not an object` };
    const o = t as PyObject;
    const fn = (isObject(o.function) ? o.function : o) as PyObject;
    const { name } = fn;
    if (typeof name !== 'string' || !name) return { ok: false, detail: `tools[${i}] has no function name` };
    if (o.type !== undefined && o.type !== 'function')
      return { ok: false, detail: `tools[${i}] (${name}) has type ${JSON.stringify(o.type)}, not "function"` };
    const params = fn.parameters ?? fn.input_schema ?? { type: 'object', properties: {} };
    if (!isObject(params)) return { ok: false, detail: `tools[${i}] (${name}) parameters is not an object` };
    if (names.has(name)) return { ok: false, detail: `tools[${i}]: tool ${name} is defined twice` };
    names.add(name);
    const { input_schema: _drop, parameters: _p, ...rest } = fn;
    const parameters = inlineDefs ? inlineSchemaDefs(params) : params;
    tools.push({ type: 'function', function: { ...rest, name, parameters } as ToolSchema['function'] });
  }
  return { ok: true, tools, names };
}

/**
 * Replaces local `$ref: "#/$defs/X"` (and `#/definitions/X`) by the definition and drops the root
 * `$defs`, because LLaMA-Factory's default tool formatter reads only top-level `properties` (§1.6,
 * §3.3). A recursive definition cannot be inlined: its inner reference stays, and so do the defs.
 */
export function inlineSchemaDefs(schema: PyObject): PyObject {
  const defs: PyObject = {
    ...(isObject(schema.definitions) ? schema.definitions : {}),
    ...(isObject(schema.$defs) ? schema.$defs : {}),
  };
  let keptRef = false;
  const go = (v: PyValue, seen: readonly string[]): PyValue => {
    if (Array.isArray(v)) return v.map((x) => go(x, seen));
    if (!isObject(v)) return v;
    const ref = v.$ref;
    if (typeof ref === 'string') {
      const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
      const target = m ? defs[m[1]!] : undefined;
      if (m && target !== undefined) {
        if (seen.includes(m[1]!)) keptRef = true;
        else {
          const { $ref: _r, ...siblings } = v;
          const resolved = go(target, [...seen, m[1]!]);
          return isObject(resolved) ? { ...resolved, ...(go(siblings, seen) as PyObject) } : resolved;
        }
      }
    }
    const out: PyObject = {};
    for (const k in v) out[k] = go(v[k]!, seen);
    return out;
  };
  const { $defs, definitions, ...body } = schema;
  const inlined = go(body, []) as PyObject;
  if (!keptRef) return inlined;
  return {
    ...inlined,
    ...($defs !== undefined ? { $defs } : {}),
    ...(definitions !== undefined ? { definitions } : {}),
  };
}
