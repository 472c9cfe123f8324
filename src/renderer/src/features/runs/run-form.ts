import type { Input } from '../../../../shared/contract';
import { runsContract } from '../../../../shared/contract/runs.contract';

/**
 * The Runs page's "New run" form as text fields (what the inputs hold), turned into runs.start's
 * input and checked with runs.start's own zod schema — the one the core checks, so the page refuses
 * exactly what the CLI and the core refuse, and says which field. Every `coworkenv run` option has a
 * field here (CLI_FLAG_FIELDS; a test holds the two lists together).
 */
export type RunForm = {
  /** all tasks; the ids typed; or a tasks-grid filter (quick search and/or the CLI's --where JSON). */
  taskMode: 'all' | 'ids' | 'filter';
  ids: string;
  quick: string;
  where: string;
  /** 'reference' or 'endpoint:NAME', as the CLI's --agent. */
  agent: string;
  seed: string;
  clean: boolean;
  /** The default seeded mix, or the same rates for every task. */
  perturb: 'mix' | 'rates';
  skipStep: string;
  wrongArgument: string;
  prohibitedCall: string;
  temperature: string;
  maxTokens: string;
  /** 'scripted' or 'endpoint:NAME', as the CLI's --user. */
  user: string;
  trials: string;
  concurrency: string;
  maxAttempts: string;
  collection: string;
  name: string;
};
export type FormField = keyof RunForm;
/** The fields typed as free text (an <input>'s value fits them as is). */
export type TextField = { [K in FormField]: string extends RunForm[K] ? K : never }[FormField];

export const DEFAULT_FORM: RunForm = {
  taskMode: 'all',
  ids: '',
  quick: '',
  where: '',
  agent: 'reference',
  seed: '0',
  clean: false,
  perturb: 'mix',
  skipStep: '0',
  wrongArgument: '0',
  prohibitedCall: '0',
  temperature: '0',
  maxTokens: '',
  user: 'scripted',
  trials: '3',
  concurrency: '4',
  maxAttempts: '4',
  collection: '',
  name: '',
};

/** `coworkenv run`'s options and the form field that offers each (resume: the Resume button of a run's row). */
export const CLI_FLAG_FIELDS: Record<string, FormField | 'resume-button'> = {
  tasks: 'ids',
  where: 'where',
  agent: 'agent',
  user: 'user',
  trials: 'trials',
  concurrency: 'concurrency',
  collection: 'collection',
  seed: 'seed',
  clean: 'clean',
  'skip-step': 'skipStep',
  'wrong-argument': 'wrongArgument',
  'prohibited-call': 'prohibitedCall',
  'max-attempts': 'maxAttempts',
  resume: 'resume-button',
};

export type FormResult =
  | { ok: true; input: Input<'runs.start'> }
  | { ok: false; errors: Partial<Record<FormField, string>> };

/** A number field: empty → left out (the schema's default); otherwise the number typed (NaN for junk, refused). */
const num = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));
const endpointOf = (v: string) => (v.startsWith('endpoint:') ? v.slice('endpoint:'.length) : null);
const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

/** Where an issue of runs.start's schema shows on the form. */
function fieldOf(path: readonly PropertyKey[]): FormField {
  const [head, sub, leaf] = path.map(String);
  if (head === 'tasks') return 'ids';
  if (head === 'where') return 'where';
  if (head === 'user') return 'user';
  if (head === 'agent') {
    const rate: Record<string, FormField> = {
      skip_step: 'skipStep',
      wrong_argument: 'wrongArgument',
      prohibited_call: 'prohibitedCall',
    };
    if (sub === 'perturbations') return rate[leaf ?? ''] ?? 'skipStep';
    if (sub === 'seed' || sub === 'clean' || sub === 'temperature' || sub === 'maxTokens') return sub;
    return 'agent';
  }
  return (['trials', 'concurrency', 'maxAttempts', 'collection', 'name'] as const).find((f) => f === head) ?? 'agent';
}

/** The form's fields as runs.start's input, before the schema looks at it (JSON errors come back as messages). */
function rawInput(f: RunForm): { raw: Record<string, unknown> } | { errors: Partial<Record<FormField, string>> } {
  let where: Record<string, unknown> | undefined;
  if (f.taskMode === 'filter') {
    if (f.where.trim()) {
      try {
        const w = JSON.parse(f.where) as unknown;
        // The CLI's --where takes the filters list alone too.
        where = (Array.isArray(w) ? { filters: w } : w) as Record<string, unknown>;
      } catch (err) {
        return { errors: { where: `not JSON: ${(err as Error).message}` } };
      }
    } else where = { filters: [] };
    if (f.quick.trim()) where = { ...where, quick: f.quick.trim() };
    if (!(where.filters as unknown[] | undefined)?.length && !where.quick)
      return { errors: { quick: 'give a search text or a filter, or choose "all tasks"' } };
  }
  const ids = f.ids
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (f.taskMode === 'ids' && !ids.length) return { errors: { ids: 'type at least one task id' } };
  const agentEndpoint = endpointOf(f.agent);
  const userEndpoint = endpointOf(f.user);
  const rates = {
    skip_step: num(f.skipStep) ?? 0,
    wrong_argument: num(f.wrongArgument) ?? 0,
    prohibited_call: num(f.prohibitedCall) ?? 0,
  };
  const agent =
    agentEndpoint === null
      ? {
          kind: 'reference',
          ...defined({ seed: num(f.seed) }),
          clean: f.clean,
          // Rates with a clean replay go to the schema, which refuses them as the CLI does.
          ...(f.perturb === 'rates' ? { perturbations: rates } : {}),
        }
      : {
          kind: 'endpoint',
          endpoint: agentEndpoint,
          ...defined({ temperature: num(f.temperature), maxTokens: num(f.maxTokens) }),
        };
  const raw = {
    tasks: f.taskMode === 'ids' ? ids : 'all',
    ...(where ? { where } : {}),
    agent,
    user: userEndpoint === null ? { kind: 'scripted' } : { kind: 'endpoint', endpoint: userEndpoint },
    ...defined({
      trials: num(f.trials),
      concurrency: num(f.concurrency),
      maxAttempts: num(f.maxAttempts),
      collection: f.collection.trim(),
      name: f.name.trim(),
    }),
  };
  return { raw };
}

/** The form as runs.start's input, or a message per field (the first issue of each). */
export function runInput(f: RunForm): FormResult {
  const r = rawInput(f);
  if ('errors' in r) return { ok: false, errors: r.errors };
  const parsed = runsContract['runs.start'].input.safeParse(r.raw);
  if (parsed.success) return { ok: true, input: r.raw as Input<'runs.start'> };
  const errors: Partial<Record<FormField, string>> = {};
  for (const issue of parsed.error.issues) errors[fieldOf(issue.path)] ??= issue.message;
  return { ok: false, errors };
}
