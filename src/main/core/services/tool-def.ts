/**
 * How the tool catalog is written down (tool-catalog.ts has the stable interface): one entry per
 * tool with its English and Chinese wording (Claw-Eval's own, reference §7.1 and its zh tasks), and
 * its parameters in the request model's declaration order. Types follow the route's pydantic
 * model: str → string, int → integer, float → number, bool → boolean, list[str] → array of string.
 */
export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array';

export type ParamDef = {
  type: ParamType;
  en: string;
  zh: string;
  /** The route's default, shown to the model as JSON Schema `default`. */
  default?: string | number | boolean | string[];
};

export type ToolDef = {
  name: string;
  /** POST route on the service, e.g. /helpdesk/tickets/update. */
  route: string;
  /** Mutates service state, or sends / shares / publishes / exports something. */
  writes: boolean;
  en: string;
  zh: string;
  params: Record<string, ParamDef>;
  required: readonly string[];
};

export const p = (type: ParamType, en: string, zh: string, dflt?: ParamDef['default']): ParamDef =>
  dflt === undefined ? { type, en, zh } : { type, en, zh, default: dflt };
