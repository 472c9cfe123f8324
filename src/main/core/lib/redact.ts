/**
 * Redaction of things that look like credentials, for everything that leaves the core: trajectory
 * exports (on by default, with a report), log lines and error messages. API keys must never reach
 * the workspace, logs or exports; this pass is the net under that rule, not a licence to store keys.
 *
 * Three layers, in this order:
 * 1. the endpoint keys this thread resolved (secrets/known-keys.ts), exactly, whatever their shape;
 * 2. the hand-written rules (secrets/rules.ts): the model providers this app talks to (prefix-exact,
 *    at a token boundary, so nothing inside base64 or a longer identifier matches) and context
 *    rules: a credential by the name of its field or label (`"pwd": …`, "api key: …",
 *    `aws_secret_access_key = …`; names in secrets/names.ts), Bearer, Authorization, URL
 *    credentials. Generic shapes are taken only when the value looks random, so prose such as
 *    "Bearer token format" or "the token count is 5" stays;
 * 3. gitleaks' maintained rule set (secrets/gitleaks.ts: 200-odd providers, keyword-prefiltered,
 *    with its entropy thresholds and allowlists), for the shapes nobody here writes regexes for.
 * Checked against the τ-bench, τ²-bench and Claw-Eval corpora (test/core/redact-corpora.test.ts).
 *
 * Hazard: a redacted trajectory is no longer byte-identical to its source (raw tool-call arguments
 * included). Tasks whose fixtures hold fake credentials on purpose (Claw-Eval T027/T028) are redacted
 * too unless their values are passed in `allow`.
 */

import { gitleaksFindings } from './secrets/gitleaks';
import { KNOWN_KEY_RULE, knownKeyCount, scrubKnownKeys } from './secrets/known-keys';
import { isSecretName, secretValueOf } from './secrets/names';
import { REDACTION_RULES, redactionMark, TRIGGER } from './secrets/rules';

export { looksRandom } from './secrets/names';
export { REDACTION_RULES, type RedactionRule, redactionMark } from './secrets/rules';

/**
 * Long strings recur across the trajectories of an export (a benchmark's system prompt, tool descriptions:
 * ~10 kB each, in every trajectory of a task); their answers are kept. Cleared when a key is registered.
 */
const CACHE_MIN = 512;
/** At most 256 strings of at most 64 kB: ≤ 32 MB held (UTF-16), usually far less. */
const CACHE_MAX = 256;
const CACHE_LONGEST = 65_536;
const cache = new Map<string, { text: string; counts: Record<string, number> }>();
let cachedFor = -1;

/** Redacts one string; answers the text and how many secrets each rule replaced (rules that found none are absent). */
export function redactText(
  text: string,
  allow?: ReadonlySet<string>,
): { text: string; counts: Record<string, number> } {
  if (text.length < 8) return { text, counts: {} };
  const cacheable = text.length >= CACHE_MIN && text.length <= CACHE_LONGEST && !allow?.size;
  if (cacheable) {
    if (cachedFor !== knownKeyCount()) cache.clear(), (cachedFor = knownKeyCount());
    const hit = cache.get(text);
    if (hit) return { text: hit.text, counts: { ...hit.counts } };
  }
  const r = redactUncached(text, allow);
  if (cacheable) {
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(text, { text: r.text, counts: { ...r.counts } });
  }
  return r;
}

function redactUncached(text: string, allow?: ReadonlySet<string>) {
  const counts: Record<string, number> = {};
  const known = scrubKnownKeys(text, redactionMark(KNOWN_KEY_RULE));
  let out = known.text;
  if (known.count) counts[KNOWN_KEY_RULE] = known.count;
  if (TRIGGER.test(out))
    for (const r of REDACTION_RULES) {
      r.re.lastIndex = 0;
      out = out.replace(r.re, (whole: string, keep: string, secret: string, at: number, text: string) => {
        if (allow?.has(secret) || (r.check && !r.check(secret, keep, at, text))) return whole;
        counts[r.name] = (counts[r.name] ?? 0) + 1;
        return `${keep}${redactionMark(r.name)}`;
      });
    }
  const found = gitleaksFindings(out).filter((f) => !allow?.has(out.slice(f.start, f.end)));
  for (let i = found.length - 1; i >= 0; i--) {
    const f = found[i]!;
    out = `${out.slice(0, f.start)}${redactionMark(f.rule)}${out.slice(f.end)}`;
    counts[f.rule] = (counts[f.rule] ?? 0) + 1;
  }
  return { text: out, counts };
}

export type RedactionReport = {
  /** Secrets replaced in all. */
  total: number;
  /** Per rule name. */
  byRule: Record<string, number>;
  /** Where: the path of each string that changed (`messages.3.tool_calls.0.function.arguments`) and its counts. */
  where: { path: string; counts: Record<string, number> }[];
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Redacts every string inside a JSON-like value (a whole trajectory: messages, raw and parsed tool
 * arguments, tool results, dispatch bodies, audits). Returns a copy where something changed and
 * shares what did not; class instances (PyFloat) are kept as they are. Object keys are not changed.
 * `allow`: exact secrets to keep (a task's own fake fixture credentials, when the export says so).
 */
export function redactValue<T>(value: T, o: { allow?: ReadonlySet<string>; path?: string } = {}) {
  const report: RedactionReport = { total: 0, byRule: {}, where: [] };
  const walk = (v: unknown, at: string, key?: string): unknown => {
    if (typeof v === 'string') {
      // A parsed {"api_key": "…"} is caught by its key, as its JSON text is by secret_field.
      let r = redactText(v, o.allow);
      const byKey =
        key !== undefined && v.length >= 6 && isSecretName(key) && secretValueOf(key, v) && !o.allow?.has(v);
      if (byKey && Object.keys(r.counts).length === 0)
        r = { text: redactionMark('secret_field'), counts: { secret_field: 1 } };
      const n = Object.values(r.counts).reduce((a, b) => a + b, 0);
      if (n === 0) return v;
      report.total += n;
      for (const [k, c] of Object.entries(r.counts)) report.byRule[k] = (report.byRule[k] ?? 0) + c;
      report.where.push({ path: at, counts: r.counts });
      return r.text;
    }
    const join = (k: string | number) => (at ? `${at}.${k}` : String(k));
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x, i) => {
        const y = walk(x, join(i));
        changed ||= y !== x;
        return y;
      });
      return changed ? out : v;
    }
    if (isPlainObject(v)) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        out[k] = walk(x, join(k), k);
        changed ||= out[k] !== x;
      }
      return changed ? out : v;
    }
    return v;
  };
  return { value: walk(value, o.path ?? '') as T, report };
}

/** An error envelope with its message, details and issue messages redacted (the dispatcher's last step). */
export function redactErrorResult<R extends { ok: boolean }>(result: R): R {
  if (result.ok) return result;
  return redactValue(result).value;
}
