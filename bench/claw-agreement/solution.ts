import { fixtureRecords, type PyValue } from '../../src/main/core/py/pyjson';
import type { ReadTask } from '../../src/main/core/tasks/claw-eval/read-task';
import type { SolutionOverride } from './overrides';

export type Call = { tool: string; args: Record<string, unknown> };
export type Solution = { calls: Call[]; final: string };

type ToolSpec = ReadTask['spec']['tools'][number];

/** Tools that change something: a good solution calls them only where the reference (or an override) says so. */
const WRITE = new RegExp(
  '_(send|create|update|delete|close|save|assign|reply|forward|add|remove|cancel|trigger|run|pause|set|post|' +
    'publish|mark|move|archive|approve|reject|submit|enable|disable|restart|rotate|edit|write|modify|resolve|' +
    'escalate|transfer|book|schedule|order|refund|flag)',
);

export const isWriteTool = (name: string): boolean => WRITE.test(name);

const properties = (t: ToolSpec): string[] => Object.keys((t.input_schema.properties ?? {}) as object);
const required = (t: ToolSpec): string[] => ((t.input_schema.required ?? []) as string[]).filter((x) => x);

/** Positional arguments go to the required parameters first, then the others, in the tool spec's order. */
const positionalOrder = (t: ToolSpec): string[] => {
  const req = required(t);
  return [...req, ...properties(t).filter((p) => !req.includes(p))];
};

/** `a, "b, c", k=v` into its parts (quotes kept together). */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === '“' || ch === '「') {
      quote = ch === '“' ? '”' : ch === '「' ? '」' : ch;
      cur += ch;
    } else if (ch === ',' || ch === '，') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const unquote = (s: string): string =>
  s
    .replace(/^["'“「]/, '')
    .replace(/["'”」]$/, '')
    .trim();

/** A literal of a reference call as the tool's schema types it (integer, number, boolean, string). */
function typed(t: ToolSpec, param: string, raw: string): unknown {
  const prop = ((t.input_schema.properties ?? {}) as Record<string, { type?: string }>)[param];
  const v = unquote(raw);
  if (prop?.type === 'integer' && /^-?\d+$/.test(v)) return Number(v);
  if (prop?.type === 'number' && Number.isFinite(Number(v))) return Number(v);
  if (prop?.type === 'boolean' && /^(true|false)$/i.test(v)) return /^true$/i.test(v);
  if (prop?.type === 'array') return [v];
  return v;
}

/** Every `tool(args)` of the reference solution that names one of the task's tools, args mapped by the spec. */
export function referenceCalls(task: ReadTask): Call[] {
  const tools = new Map(task.spec.tools.map((t) => [t.name, t]));
  const out: Call[] = [];
  for (const line of task.spec.reference_solution.split('\n')) {
    // `tool(` with no space: "calendar_create_event (expected action)" is prose, not a call.
    for (const m of line.matchAll(/\b([a-z][a-z0-9]*_[a-z0-9_]+)\(([^()\n]*)\)/g)) {
      const t = tools.get(m[1]!);
      if (t) out.push({ tool: t.name, args: mappedArgs(t, m[2]!, line) });
    }
  }
  return out.concat(proseSearches(task));
}

/**
 * Searches the reference describes in prose: `contacts_search with query "张伟"`, `Search for "VPN"` — a line that
 * names a search tool (or says "search" when the task has one search tool) and quotes what to look for.
 */
function proseSearches(task: ReadTask): Call[] {
  const searches = task.spec.tools.filter((t) => /_search$/.test(t.name) && required(t).length === 1);
  const out: Call[] = [];
  for (const line of task.spec.reference_solution.split('\n')) {
    const named = searches.find((t) => line.includes(t.name) && !line.includes(`${t.name}(`));
    const tool = named ?? (searches.length === 1 && /\bsearch\b/i.test(line) ? searches[0] : undefined);
    if (!tool) continue;
    for (const m of line.matchAll(/["“「]([^"”」]+)["”」]/g))
      out.push({ tool: tool.name, args: { [required(tool)[0]!]: m[1]! } });
  }
  return out;
}

/**
 * Keyword arguments by name, then positional ones into the parameters still unset (required first, in the spec's
 * order); a required text parameter the reference leaves out (a message body) gets the reference step's own text.
 */
function mappedArgs(t: ToolSpec, text: string, line: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const positional: string[] = [];
  for (const part of splitArgs(text)) {
    const kv = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)$/.exec(part);
    if (kv && properties(t).includes(kv[1]!)) args[kv[1]!] = typed(t, kv[1]!, kv[2]!);
    else if (part && !/^(\.\.\.|…)/.test(part)) positional.push(part);
  }
  const free = positionalOrder(t).filter((p) => !(p in args));
  positional.forEach((v, i) => free[i] !== undefined && (args[free[i]!] = typed(t, free[i]!, v)));
  const props = (t.input_schema.properties ?? {}) as Record<string, { type?: string }>;
  for (const p of required(t))
    if (!(p in args) && props[p]?.type === 'string') args[p] = line.replace(/^\s*\d+\.\s*/, '').trim();
  return args;
}

/** The service a tool belongs to: the first path segment of its endpoint (…/gmail/messages/get → gmail). */
function serviceOf(task: ReadTask, tool: string): string | undefined {
  const url = task.spec.tool_endpoints.find((e) => e.tool_name === tool)?.url;
  return url && URL.canParse(url) ? new URL(url).pathname.split('/')[1] : undefined;
}

function recordsOf(task: ReadTask, service: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      // A record has an id field of its own; anything else is a wrapper ({"tickets": [...]}) to look into.
      if (Object.keys(o).some((k) => /(^|_)id$/.test(k))) out.push(o);
      else
        Object.values(o)
          .filter((x) => x && typeof x === 'object')
          .forEach(walk);
    }
  };
  for (const f of task.fixtures.filter((x) => x.service === service)) walk(fixtureRecords(f) as PyValue);
  return out;
}

/** The ids a get-style tool takes: its one required parameter's values in the service's fixture records. */
function idsFor(task: ReadTask, t: ToolSpec): string[] {
  const req = required(t);
  const service = serviceOf(task, t.name);
  if (req.length !== 1 || !service || !/_id$|^id$/.test(req[0]!)) return [];
  const p = req[0]!;
  const ids = recordsOf(task, service).map((r) => r[p] ?? r.id);
  return [...new Set(ids.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number'))].map(
    String,
  );
}

const key = (c: Call) => `${c.tool}\0${JSON.stringify(c.args)}`;

/**
 * A good solution's calls: every read tool the task offers used as a thorough agent would (list tools once with
 * their defaults, get tools for every record of their service), then the reference solution's own calls in order
 * (writes included), then an override's extra calls; an override may drop calls or replace the whole script.
 */
export function solutionCalls(task: ReadTask, o: SolutionOverride | undefined): Call[] {
  if (o?.calls) return o.calls.map((c) => ({ tool: c.tool, args: c.args ?? {} }));
  const calls: Call[] = [];
  const seen = new Set<string>();
  const push = (c: Call) => {
    if (seen.has(key(c))) return;
    seen.add(key(c));
    calls.push(c);
  };
  const reads = task.spec.tools.filter((t) => !isWriteTool(t.name));
  for (const t of reads) if (!required(t).length) push({ tool: t.name, args: {} });
  for (const t of reads) for (const id of idsFor(task, t)) push({ tool: t.name, args: { [required(t)[0]!]: id } });
  for (const c of referenceCalls(task)) push(c);
  for (const c of o?.extra_calls ?? []) push({ tool: c.tool, args: c.args ?? {} });
  const drop = new Set(o?.drop_tools ?? []);
  return calls.filter((c) => !drop.has(c.tool));
}

/**
 * The final answer: the reference solution (the findings it names) and the judge rubric's facts, which is what an
 * answer that the rubric scores 1.0 states; an override may add to it or replace it.
 */
export function solutionFinal(task: ReadTask, o: SolutionOverride | undefined): string {
  if (o?.final !== undefined) return o.final;
  const parts = [task.spec.reference_solution.trim(), task.spec.judge_rubric.trim()];
  for (const c of task.spec.scoring_components) {
    const k = c.check;
    if (k.keywords?.length) parts.push(k.keywords.join(', '));
    if (k.categories?.length) parts.push(k.categories.join(', '));
  }
  if (o?.final_append) parts.push(o.final_append);
  let text = parts.filter(Boolean).join('\n\n');
  for (const s of o?.final_remove ?? []) text = text.split(s).join('');
  return text;
}
