import type { z } from 'zod';
import type { ServiceDefinition } from './define';
import { deepCopy, isObject, toPlain, type PyValue } from '../py/pyjson';

/** One fixture file of a service as upstream loads it, and the rules our records follow. */
export type FixtureRules = {
  service: string;
  env: string;
  defaultFixture: string;
  schema: z.ZodType;
  key: string;
  upstreamReads: readonly string[];
  /** The service's load, for the main file only: upstream parses it when it starts (extra files never fail). */
  def?: ServiceDefinition;
};

/** The main fixture file of a service, then its extra ones (web's pages), each with its rules. */
export function fixtureRulesOf(def: ServiceDefinition): FixtureRules[] {
  return [
    {
      service: def.id,
      env: def.fixtureEnv,
      defaultFixture: def.defaultFixture,
      schema: def.recordSchema,
      key: def.recordKey,
      upstreamReads: def.upstreamReads,
      def,
    },
    ...(def.extraFixtures ?? []).map((x) => ({
      service: def.id,
      env: x.env,
      defaultFixture: x.defaultFixture,
      schema: x.recordSchema,
      key: x.recordKey,
      upstreamReads: x.upstreamReads,
    })),
  ];
}

/** A problem of one record (index null: of the file), naming its field and, for a vocabulary issue, the value. */
export type RecordIssue = {
  index: number | null;
  /** ` (event_id evt_201)`, or '' when the record has no key. */
  id: string;
  /** A dotted path inside the record ('' for the record itself). */
  field: string;
  /** The value as JSON text (shortened), when there is one. */
  value?: string;
  problem: string;
};

/**
 * `unusable`: what upstream itself cannot serve — not a JSON array, a record that is not an object or lacks a field
 * upstream reads as record["field"], a value its start-up cannot parse. `unusual`: everything else our record schema
 * says (vocabulary, formats, types upstream passes through, fields it never reads, duplicate keys).
 */
export type FixtureCheck = { unusable: RecordIssue[]; unusual: RecordIssue[] };

/**
 * A fixture of 64 MB could hold millions of issues; past this many per file and kind they are counted, not listed,
 * so one bad file cannot fill the workspace or the import notice.
 */
export const MAX_ISSUES_PER_FILE = 500;

const short = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

function idOf(r: PyValue, key: string): string {
  if (!isObject(r)) return '';
  const k = Object.hasOwn(r, key) ? key : Object.keys(r).find((x) => x.endsWith('_id'));
  const v = k === undefined ? undefined : r[k];
  return k !== undefined && (typeof v === 'string' || typeof v === 'number') ? ` (${k} ${String(v)})` : '';
}

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/** Runs the service's own load (our port of upstream's start-up); its Python error when upstream would not start. */
function loadError(def: ServiceDefinition, records: PyValue[], now: Date): string | undefined {
  try {
    def.load(records.map(deepCopy), now, []);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Which parsed field stops a record from loading: the first whose removal lets it load (calendar's end_time is
 * optional), else the first one (calendar's start_time, gmail's date: upstream cannot load without them either).
 */
function culprit(def: ServiceDefinition, fields: readonly string[], r: Record<string, PyValue>, now: Date): string {
  const present = fields.filter((f) => Object.hasOwn(r, f));
  const found = present.find((f) => {
    const { [f]: _, ...rest } = r;
    return loadError(def, [rest], now) === undefined;
  });
  return found ?? present[0] ?? fields[0]!;
}

/**
 * Checks a fixture's parsed content against what upstream needs and what our schema says. `now` is the clock of the
 * load check (gmail and calendar shift their dates from it, as upstream does at start-up).
 */
export function checkFixture(rules: FixtureRules, content: PyValue, now: Date): FixtureCheck {
  const unusable: RecordIssue[] = [];
  const unusual: RecordIssue[] = [];
  if (!Array.isArray(content)) {
    unusable.push({
      index: null,
      id: '',
      field: '',
      problem: 'not a JSON array (upstream loads one array of records per service and iterates it)',
    });
    return { unusable, unusual };
  }
  const seen = new Map<unknown, number>();
  content.forEach((r, index) => {
    const id = idOf(r, rules.key);
    if (!isObject(r)) {
      unusable.push({
        index,
        id,
        field: '',
        value: short(toPlain(r)),
        problem: `not a JSON object (upstream reads record["${rules.upstreamReads[0]}"] of every record)`,
      });
      return;
    }
    const missing = rules.upstreamReads.filter((k) => !Object.hasOwn(r, k));
    for (const field of missing)
      unusable.push({
        index,
        id,
        field,
        problem: `missing: upstream's ${rules.service} reads record["${field}"] and would crash (KeyError)`,
      });
    const plain = toPlain(r);
    const res = rules.schema.safeParse(plain);
    if (!res.success)
      for (const i of res.error.issues) {
        const field = i.path.map(String).join('.');
        if (missing.includes(String(i.path[0]))) continue; // reported above
        const value = at(plain, i.path);
        unusual.push({
          index,
          id,
          field,
          ...(value === undefined ? {} : { value: short(value) }),
          problem: value === undefined ? `missing (${i.message})` : i.message,
        });
      }
    // Lookups take the first record with the id (upstream loops and returns): a later one is never found.
    const k = r[rules.key];
    if (k === undefined || k === null || typeof k === 'object') return;
    const first = seen.get(k);
    if (first !== undefined)
      unusual.push({
        index,
        id,
        field: rules.key,
        problem: `duplicate ${rules.key} ${short(k)} (also record ${first}); lookups find record ${first}`,
      });
    else seen.set(k, index);
  });
  const def = rules.def;
  if (!unusable.length && def?.parsedAtLoad && content.length) {
    const all = loadError(def, content, now);
    if (all) {
      // The record that fails on its own names where; a failure only of the whole (an overflow) names the file.
      const index = content.findIndex((r) => loadError(def, [r], now) !== undefined);
      const r = index < 0 ? undefined : (content[index] as Record<string, PyValue>);
      unusable.push({
        index: index < 0 ? null : index,
        id: r ? idOf(r, rules.key) : '',
        field: r ? culprit(def, def.parsedAtLoad, r, now) : '',
        problem:
          `upstream's ${def.id} parses ${def.parsedAtLoad.join(' and ')} when it starts and would not start: ` +
          (r ? loadError(def, [r], now) : all),
      });
    }
  }
  return { unusable: capped(unusable), unusual: capped(unusual) };
}

function capped(list: RecordIssue[]): RecordIssue[] {
  if (list.length <= MAX_ISSUES_PER_FILE) return list;
  const more = list.length - MAX_ISSUES_PER_FILE;
  return [
    ...list.slice(0, MAX_ISSUES_PER_FILE),
    { index: null, id: '', field: '', problem: `${more} more issue(s) of this kind in this file, not listed` },
  ];
}

/** `record 0 (event_id evt_201): field organizer: "王明" — an email address (…)`. */
export function issueText(i: RecordIssue): string {
  const where = i.index === null ? '' : `record ${i.index}${i.id}: `;
  const field = i.field ? `field ${i.field}: ` : '';
  return `${where}${field}${i.value === undefined ? '' : `${i.value} — `}${i.problem}`;
}
