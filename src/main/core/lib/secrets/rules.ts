import { isSecretName, looksRandom, secretValueOf } from './names';

/**
 * The hand-written rules of lib/redact.ts: the model providers this app talks to, and the context
 * rules (a credential by the name of its field or label, Bearer, Authorization, URL credentials).
 * Provider shapes beyond these come from gitleaks' rule set (gitleaks.ts), not from new rules here.
 */

/** A secret found: the rule's name; `[REDACTED:<name>]` replaces it. */
export type RedactionRule = {
  name: string;
  /** What the rule matches, for documentation and review. */
  description: string;
  /** Group 1: text kept before the secret (may be empty); group 2: the secret. Must be global. */
  re: RegExp;
  /** A further test on the secret (randomness), the text kept before it and where that starts in `text`. */
  check?: (secret: string, keep: string, at: number, text: string) => boolean;
};

/** Before a key: not part of a longer token (word characters, base64 / base64url, dots of a hostname). */
const B = '(?<![A-Za-z0-9_+/.-])';
/** After a key: likewise. */
const E = '(?![A-Za-z0-9_+/-])';

/** "Basic <base64 of user:password>". */
const looksBasic = (s: string): boolean => {
  if (!/^[A-Za-z0-9+/]{8,}={0,2}$/.test(s)) return false;
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(Buffer.from(s, 'base64').toString('latin1'));
};

/**
 * The label of a secret_label match: the keyword and the identifier it ends (walking back over
 * [A-Za-z0-9_.-] from `at`), with one word before it when a space separates them ("api key").
 */
function labelAt(text: string, at: number, keep: string): string {
  const word = /[A-Za-z0-9_.-]/;
  let s = at;
  while (s > 0 && word.test(text[s - 1]!)) s--;
  if (s > 1 && text[s - 1] === ' ' && word.test(text[s - 2]!)) for (s--; s > 0 && word.test(text[s - 1]!); ) s--;
  return text.slice(s, at) + /^[A-Za-z]+/.exec(keep)![0];
}

const rule = (name: string, description: string, re: string, flags = 'g', check?: RedactionRule['check']) => ({
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
    'a quoted value under a quoted key named as a credential (api_key, secret, password, pwd, token, ' +
      'aws_secret_access_key, clientSecret…: secrets/names.ts), 6 characters or more, whatever it looks like',
    '(\\\\?["\'][A-Za-z0-9_-]*?(?:key|secret|password|passwd|pwd|passphrase|token)\\\\?["\']\\s*:\\s*\\\\?["\'])' +
      '([^"\'\\\\\\[]{6,})',
    'gi',
    (secret, keep) => {
      const name = /([A-Za-z0-9_-]+)\\?["']\s*:\s*\\?["']$/.exec(keep)?.[1] ?? '';
      return isSecretName(name) && secretValueOf(name, secret);
    },
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
  rule(
    'secret_label',
    'an opaque value after a credential label or field name in text: "api key: …", "API-Key = …", "token: …", ' +
      'aws_secret_access_key = …, pwd=… (letters and digits, 10 or more in a run; "token_count: 12" is no label)',
    // Anchored on the keyword (a scan from every position for the identifier before it was the slowest rule).
    '((?:key|secret|password|passwd|pwd|passphrase|token)\\\\?["\'`]?\\s*[:=：]\\s*\\\\?["\'`]?)' +
      '([A-Za-z0-9._~+/=-]{10,})',
    'gi',
    (secret, keep, at, text) => looksRandom(secret) && isSecretName(labelAt(text, at, keep)),
  ),
];

export const redactionMark = (rule: string) => `[REDACTED:${rule}]`;

/**
 * A fixed substring every rule's match contains; a string without any is skipped (most are: ~3× faster
 * on τ-bench). Keep it in step with REDACTION_RULES (test/core/redact.test.ts has a case per rule and key).
 */
export const TRIGGER = new RegExp(
  [
    ...['sk-', 'eyJ', 'AIza', 'gh[pousr]_', 'github_pat_', 'AKIA', 'ASIA', 'hf_', 'xox', 'SG\\.', 'gsk_', 'xai-'],
    ...['whsec_', '_live_', '_test_', 'bearer', 'authoriz', 'api-key', 'api_key', 'apikey', 'secret', 'private'],
    ...['passw', 'pwd', '密码', '口令', 'token', '://', 'PRIVATE KEY', 'api key', 'passphrase', 'secret'],
  ].join('|'),
  'i',
);
