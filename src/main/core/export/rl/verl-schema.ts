import type { OpenAiTool } from './package-tasks';

/**
 * verl v0.9.0's tool schema model (verl/tools/schemas.py) keeps, per parameter, only `type`, `description`
 * and `enum`, and dumps schemas with exclude_unset: `items`, `default`, `minimum`, `format`, nested
 * `properties`… are silently dropped before the chat template renders the tools. The package folds each
 * dropped keyword into the parameter's description, so the model still sees (for example) an array's item
 * type, and records every fold (manifest `verl.schema_folds`, `export lint`).
 */
const KEPT_PROPERTY_KEYS = new Set(['type', 'description', 'enum']);
const KEPT_PARAMETERS_KEYS = new Set(['type', 'properties', 'required']);

/** One keyword the trainer's schema model would drop: where, and what the description now says instead. */
export type SchemaFold = { tool: string; parameter: string | null; keyword: string; folded: boolean };

const itemsText = (items: unknown): string => {
  if (items && typeof items === 'object' && !Array.isArray(items)) {
    const o = items as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && typeof o.type === 'string') return o.type;
  }
  return JSON.stringify(items);
};

const foldText = (keyword: string, value: unknown) =>
  keyword === 'items' ? `items: ${itemsText(value)}` : `${keyword}: ${JSON.stringify(value)}`;

/** The tool as verl's schema model keeps it, the dropped keywords folded into descriptions. */
export function verlToolSchema(tool: OpenAiTool): { tool: OpenAiTool; folds: SchemaFold[] } {
  const name = tool.function.name;
  const folds: SchemaFold[] = [];
  const params = tool.function.parameters as Record<string, unknown>;
  const props = (params.properties ?? {}) as Record<string, Record<string, unknown>>;
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [param, schema] of Object.entries(props)) {
    const kept: Record<string, unknown> = {};
    const notes: string[] = [];
    for (const [k, v] of Object.entries(schema ?? {})) {
      if (KEPT_PROPERTY_KEYS.has(k)) kept[k] = v;
      else {
        notes.push(foldText(k, v));
        folds.push({ tool: name, parameter: param, keyword: k, folded: true });
      }
    }
    if (notes.length) {
      const base = typeof kept.description === 'string' ? kept.description.trimEnd() : '';
      kept.description = `${base}${base ? ' ' : ''}(${notes.join('; ')})`;
    }
    properties[param] = kept;
  }
  const parameters: Record<string, unknown> = { type: params.type ?? 'object', properties };
  if (Array.isArray(params.required)) parameters.required = params.required;
  for (const k of Object.keys(params))
    if (!KEPT_PARAMETERS_KEYS.has(k)) folds.push({ tool: name, parameter: null, keyword: k, folded: false });
  return {
    tool: { type: 'function', function: { name, description: tool.function.description, parameters } },
    folds,
  };
}

/** One line per keyword verl would drop from these tools, naming tool, parameter and what the package did. */
export function schemaFoldLines(folds: readonly SchemaFold[]): string[] {
  return folds.map(
    (f) =>
      `tool ${f.tool}${f.parameter ? `, parameter ${f.parameter}` : ''}: verl drops "${f.keyword}"` +
      (f.folded ? ' (folded into the description)' : ' (not representable: left out)'),
  );
}
