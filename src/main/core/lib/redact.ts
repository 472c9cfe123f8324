/**
 * Redaction of things that look like credentials, for everything that leaves the core: trajectory
 * exports (on by default, with a report), log lines and error messages. API keys must never reach
 * the workspace, logs or exports; this pass is the net under that rule, not a licence to store keys.
 *
 * The patterns are deliberately narrow: a key shape is only taken with its provider's prefix, at a
 * token boundary (so nothing inside base64 or a longer identifier matches), and generic shapes
 * (Bearer, Authorization, "api_key": …) only when the value looks random (digits and letters with a
 * long alphanumeric run), so prose such as "Bearer token format" or "authorization rates" is left
 * alone. Checked against the τ-bench, τ²-bench and Claw-Eval corpora (test/core/redact.test.ts).
 *
 * Hazard: a redacted trajectory is no longer byte-identical to its source (raw tool-call arguments
 * included). Tasks whose fixtures hold fake credentials on purpose (Claw-Eval T027/T028) are redacted
 * too unless their values are passed in `allow`.
 */

/** A secret found: the rule's name; `[REDACTED:<name>]` replaces it. */
export type RedactionRule = {
  name: string;
  /** What the rule matches, for documentation and review. */
  description: string;
  /** Group 1: text kept before the secret (may be empty); group 2: the secret. Must be global. */
  re: RegExp;
  /** A further test on the secret (randomness), for the generic shapes. */
  check?: (secret: string) => boolean;
};

/** Before a key: not part of a longer token (word characters, base64 / base64url, dots of a hostname). */
const B = '(?<![A-Za-z0-9_+/.-])';
/** After a key: likewise. */
const E = '(?![A-Za-z0-9_+/-])';

/** A random-looking credential: letters and digits, with an alphanumeric run of 10 or more. */
export const looksRandom = (s: string): boolean => /[0-9]/.test(s) && /[A-Za-z]/.test(s) && /[A-Za-z0-9]{10,}/.test(s);

/** "Basic <base64 of user:password>". */
const looksBasic = (s: string): boolean => {
  if (!/^[A-Za-z0-9+/]{8,}={0,2}$/.test(s)) return false;
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(Buffer.from(s, 'base64').toString('latin1'));
};

const rule = (name: string, description: string, re: string, flags = 'g', check?: (s: string) => boolean) => ({
  name,
  description,
  re: new RegExp(re, flags),
  ...(check ? { check } : {}),
});

/** The patterns, in order (a later rule never matches inside an earlier replacement). */
export const REDACTION_RULES: readonly RedactionRule[] = [
  rule(
    'private_key',
    'PEM private key blocks (-----BEGIN … PRIVATE KEY----- … -----END … PRIVATE KEY-----)',
    '()(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----)',
  ),
  rule(
    'jwt',
    'JSON Web Tokens: eyJ….eyJ….signature',
    `()${B}(eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,})${E}`,
  ),
  rule('anthropic', 'Anthropic keys: sk-ant-<kind>-…', `()${B}(sk-ant-[a-z0-9]+-[A-Za-z0-9_-]{20,})${E}`),
  rule('openrouter', 'OpenRouter keys: sk-or-v1-<64 hex>', `()${B}(sk-or-v1-[a-f0-9]{32,})${E}`),
  rule(
    'openai',
    'OpenAI project / service-account / admin keys: sk-proj-…, sk-svcacct-…, sk-admin-…',
    `()${B}(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,})${E}`,
  ),
  rule(
    'sk_key',
    'other sk-… keys (OpenAI legacy, DeepSeek, Moonshot, …): sk- and 20+ characters that look random',
    `()${B}(sk-[A-Za-z0-9][A-Za-z0-9_-]{19,})${E}`,
    'g',
    looksRandom,
  ),
  rule(
    'stripe',
    'Stripe secret / restricted keys and webhook secrets: sk_live_…, rk_test_…, whsec_…',
    `()${B}((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{16,})${E}`,
  ),
  rule('google_api_key', 'Google API keys: AIza + 35 characters', `()${B}(AIza[0-9A-Za-z_-]{35})${E}`),
  rule(
    'github',
    'GitHub tokens: ghp_/gho_/ghu_/ghs_/ghr_ + 36, github_pat_…',
    `()${B}(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})${E}`,
  ),
  rule(
    'aws_access_key_id',
    'AWS access key ids: AKIA/ASIA + 16 upper-case letters or digits',
    `()${B}((?:AKIA|ASIA)[A-Z0-9]{16})${E}`,
  ),
  rule('huggingface', 'Hugging Face tokens: hf_ + 30 or more letters and digits', `()${B}(hf_[A-Za-z0-9]{30,})${E}`),
  rule('slack', 'Slack tokens: xoxb-/xoxp-/xoxa-/xoxo-/xoxr-/xoxs-…', `()${B}(xox[abposr]-[A-Za-z0-9-]{10,})${E}`),
  rule('sendgrid', 'SendGrid keys: SG.<id>.<secret>', `()${B}(SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,})${E}`),
  rule('groq', 'Groq keys: gsk_ + 40 or more', `()${B}(gsk_[A-Za-z0-9]{40,})${E}`),
  rule('xai', 'xAI keys: xai- + 40 or more', `()${B}(xai-[A-Za-z0-9]{40,})${E}`),
  rule(
    'bearer',
    'the credential after "Bearer " when it looks random (not "Bearer token format")',
    '(\\bBearer\\s+)([A-Za-z0-9._~+/-]{12,}=*)',
    'gi',
    looksRandom,
  ),
  rule(
    'authorization',
    'the credential of an Authorization / Proxy-Authorization header or field (Basic user:password included)',
    '(\\b(?:proxy-)?authorization["\']?\\s*[:=]\\s*["\']?(?:(?:basic|digest|token|bearer|apikey|key)\\s+)?)' +
      '([^\\s"\',;]{8,})',
    'gi',
    (s) => looksRandom(s) || looksBasic(s),
  ),
  rule(
    'api_key_header',
    'the value of an x-api-key / api-key / x-goog-api-key header when it looks random',
    '(\\b(?:x-api-key|api-key|x-goog-api-key)\\s*:\\s*)([^\\s"\',;]{8,})',
    'gi',
    looksRandom,
  ),
  rule(
    'secret_field',
    'a quoted value under a quoted key ending in api_key, secret, password, passwd, auth_token, access_token, ' +
      'refresh_token or private_key ("api_key": "…"), 6 characters or more',
    '(\\\\?["\'][A-Za-z0-9_-]*?(?:api[_-]?key|secret|password|passwd|auth[_-]?token|access[_-]?token|' +
      'refresh[_-]?token|private[_-]?key)\\\\?["\']\\s*:\\s*\\\\?["\'])([^"\'\\\\\\[]{6,})',
    'gi',
  ),
  rule(
    'password_text',
    'the word after "password:" / "passwd=" / "pwd:" / "密码：" in prose when it mixes letters and digits (8 or more)',
    '((?:\\b(?:password|passwd|pwd)|密码|口令)\\s*[:=：]\\s*)([^\\s"\',;\\[]{8,})',
    'gi',
    (s) => /[0-9]/.test(s) && /[A-Za-z]/.test(s),
  ),
  rule(
    'env_secret',
    'NAME=value where NAME is upper case and ends in API_KEY, SECRET, TOKEN or PASSWORD (shell commands, .env files)',
    '(\\b[A-Z][A-Z0-9_]*(?:API_KEY|SECRET|TOKEN|PASSWORD)=["\']?)([^\\s"\'\\[]{8,})',
  ),
  rule(
    'url_credentials',
    'the password in scheme://user:password@host',
    '(\\b[a-z][a-z0-9+.-]*://[^\\s/:@"\'<>]+:)([^\\s/"\'<>]{3,})(?=@[A-Za-z0-9.-])',
  ),
];

export const redactionMark = (rule: string) => `[REDACTED:${rule}]`;

/**
 * A fixed substring every rule's match contains; a string without any is skipped (most are: ~3× faster
 * on τ-bench). Keep it in step with REDACTION_RULES (test/core/redact.test.ts has a case per rule and key).
 */
const TRIGGER = new RegExp(
  [
    ...['sk-', 'eyJ', 'AIza', 'gh[pousr]_', 'github_pat_', 'AKIA', 'ASIA', 'hf_', 'xox', 'SG\\.', 'gsk_', 'xai-'],
    ...['whsec_', '_live_', '_test_', 'bearer', 'authoriz', 'api-key', 'api_key', 'apikey', 'secret', 'private'],
    ...['passw', 'pwd', '密码', '口令', 'token', '://', 'PRIVATE KEY'],
  ].join('|'),
  'i',
);

/** Object keys whose string values are secrets whatever they look like (secret_field, for parsed JSON). */
export const SECRET_KEY = new RegExp(
  '(?:^|[_-])(?:api[_-]?key|apikey|secret|password|passwd|auth[_-]?token|access[_-]?token|refresh[_-]?token|' +
    'private[_-]?key)$',
  'i',
);

/** Redacts one string; answers the text and how many secrets each rule replaced (rules that found none are absent). */
export function redactText(
  text: string,
  allow?: ReadonlySet<string>,
): { text: string; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  if (text.length < 8 || !TRIGGER.test(text)) return { text, counts };
  let out = text;
  for (const r of REDACTION_RULES) {
    r.re.lastIndex = 0;
    out = out.replace(r.re, (whole: string, keep: string, secret: string) => {
      if (allow?.has(secret) || (r.check && !r.check(secret))) return whole;
      counts[r.name] = (counts[r.name] ?? 0) + 1;
      return `${keep}${redactionMark(r.name)}`;
    });
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
      const byKey = key !== undefined && SECRET_KEY.test(key) && v.length >= 6 && !o.allow?.has(v);
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
