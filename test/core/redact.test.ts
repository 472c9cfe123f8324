import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REDACTION_RULES, redactErrorResult, redactText, redactValue } from '../../src/main/core/lib/redact';
import { PyFloat } from '../../src/main/core/py/pyjson';

// Key-shaped strings are made at run time: none sits in the repository for a secret scanner to flag.
const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** n random characters from `chars`, starting with its first and ending in 7 (a letter and a digit for sure). */
const rand = (n: number, chars = CHARS) =>
  `${chars[0]}${[...randomBytes(n - 2)].map((b) => chars[b % chars.length]).join('')}7`;
const hex = (n: number) => randomBytes(n).toString('hex').slice(0, n);
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** [rule, text with the secret in context, the expected text after redaction]. */
function realistic(): [string, string, string][] {
  const proj = `sk-proj-${rand(48)}_${rand(20)}-${rand(30)}`;
  const legacy = `sk-${rand(20)}T3BlbkFJ${rand(20)}`;
  const deepseek = `sk-${hex(32)}`;
  const ant = `sk-ant-api03-${rand(60)}-${rand(20)}AA`;
  const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${rand(43)}`;
  const basic = Buffer.from(`admin:${rand(12)}`).toString('base64');
  return [
    ['openai', `export OPENAI_BASE=x; curl -H "x: ${proj}" https://api.openai.com`, 'openai'],
    ['sk_key', `OpenAI legacy key ${legacy}.`, 'sk_key'],
    ['sk_key', `deepseek = "${deepseek}"`, 'sk_key'],
    ['anthropic', `key=${ant}`, 'anthropic'],
    ['openrouter', `use sk-or-v1-${hex(64)} for routing`, 'openrouter'],
    ['google_api_key', `https://maps.googleapis.com/maps/api?key=AIza${rand(35)}&q=1`, 'google_api_key'],
    ['github', `token ghp_${rand(36)} expires`, 'github'],
    ['github', `github_pat_${rand(22)}_${rand(59)}`, 'github'],
    ['aws_access_key_id', `aws_access_key_id = AKIA${rand(16, UPPER)}`, 'aws_access_key_id'],
    ['huggingface', `HF: hf_${rand(34)}`, 'huggingface'],
    ['slack', `xoxb-${hex(12)}-${hex(13)}-${rand(24)}`, 'slack'],
    ['stripe', `stripe.api_key = "sk_live_${rand(24)}"`, 'stripe'],
    ['sendgrid', `SG.${rand(22)}.${rand(43)}`, 'sendgrid'],
    ['groq', `gsk_${rand(52)}`, 'groq'],
    ['jwt', `session=${jwt}; path=/`, 'jwt'],
    ['bearer', `curl -H 'Authorization: Bearer ${rand(40)}' https://x`, 'bearer'],
    ['authorization', `Authorization: Basic ${basic}`, 'authorization'],
    ['authorization', `{"headers": {"Authorization": "Token ${hex(40)}"}}`, 'authorization'],
    ['api_key_header', `x-api-key: ${hex(32)}`, 'api_key_header'],
    ['secret_field', `{"name": "svc", "api_secret": "whatever-it-is-${rand(6)}"}`, 'secret_field'],
    ['secret_field', `{\\"password\\": \\"hunter2hunter2\\"}`, 'secret_field'],
    ['secret_field', `{"client_private_key": "${rand(20)}"}`, 'secret_field'],
    ['secret_field', `{"refresh_token": "${rand(20)}"}`, 'secret_field'],
    ['password_text', `Daily backup, root password: ${rand(12)}!@#$2026`, 'password_text'],
    ['password_text', `每日自动备份，root密码：${rand(12)}`, 'password_text'],
    ['env_secret', `MY_SERVICE_TOKEN=${rand(24)} node run.js`, 'env_secret'],
    ['url_credentials', `postgresql://admin:S3cr3t!@#$2026@db.internal:5432/prod`, 'url_credentials'],
    ['secret_label', `Here is the service's api key: ${rand(24)}, rotate it monthly`, 'secret_label'],
    ['private_key', `-----BEGIN RSA PRIVATE KEY-----\\n${rand(64)}\\n-----END RSA PRIVATE KEY-----`, 'private_key'],
  ];
}

describe('redactText on realistic key-like strings', () => {
  it('every rule finds its shape, replaces only the secret and counts it', () => {
    const seen = new Set<string>();
    for (const [name, text] of realistic()) {
      const r = redactText(text);
      expect(r.counts, text).toEqual({ [name]: 1 });
      expect(r.text, text).toContain(`[REDACTED:${name}]`);
      seen.add(name);
    }
    // Every documented rule has a realistic case above.
    expect([...seen].sort()).toEqual(
      REDACTION_RULES.map((r) => r.name)
        .filter((n) => n !== 'xai')
        .sort(),
    );
  });

  it('keeps the text around the secret exactly', () => {
    const key = `sk-proj-${rand(40)}`;
    expect(redactText(`before ${key} after`).text).toBe('before [REDACTED:openai] after');
    expect(redactText(`Authorization: Bearer ${rand(32)}\n`).text).toBe('Authorization: Bearer [REDACTED:bearer]\n');
    expect(redactText('postgres://u:pa55word@db:5432/x').text).toBe(
      'postgres://u:[REDACTED:url_credentials]@db:5432/x',
    );
    expect(redactText(`{"api_key": "${hex(32)}", "n": 1}`).text).toBe('{"api_key": "[REDACTED:secret_field]", "n": 1}');
  });

  it('leaves ordinary text alone (no false positives)', () => {
    const innocent = [
      'Use AsiaPay API keys (Bearer token format, same header structure)',
      'It improves authorization rates and reduces transaction costs.',
      'authorization needed before the refund',
      'Authorization: pending approval',
      'Reset your password: required before login; password = "Sunshine" is weak',
      'task-management-system-overview and ask-for-help-please-now',
      'scikit-learn (sk-learn) and the skeleton key',
      'sk-2024-annual-report-final-version.pdf',
      'commit 3f2a9c7e1b4d5a6f7e8d9c0b1a2f3e4d5c6b7a8f, uuid 123e4567-e89b-12d3-a456-426614174000',
      'mailto:alice@example.com and https://example.com/path?a=1 and https://bob@example.com/',
      'The reservation HAT136 was paid with credit_card_4421486 and certificate_7504069.',
      '{"api_key": null, "password": "", "token_count": 12345678901234, "max_tokens": "1024"}',
      '{"secret": "short"}',
      'SG.xx is a prefix; AKIA is a prefix; ghs_ is a prefix; whsec_ too',
      `data:image/png;base64,${randomBytes(3000).toString('base64')}`,
      'BEGIN PUBLIC KEY is fine',
    ];
    for (const t of innocent) expect(redactText(t), t).toEqual({ text: t, counts: {} });
  });

  it('does not match a key shape inside a longer token (base64, identifiers)', () => {
    const inside = `x${'A'.repeat(10)}AIza${rand(35)}Q`;
    expect(redactText(inside).counts).toEqual({});
    expect(redactText(`prefixAKIA${rand(16, UPPER)}`).counts).toEqual({});
    expect(redactText(`mysk-proj-${rand(40)}`).counts).toEqual({});
  });

  it('a parsed object is caught by its key as its JSON text is (secret_field), after the shape rules', () => {
    const token = `auth_token_${hex(30)}`;
    const { value, report } = redactValue({ api_secret: token, api_key: `AKIA${rand(16, UPPER)}`, note: token });
    expect(value).toEqual({
      api_secret: '[REDACTED:secret_field]',
      api_key: '[REDACTED:aws_access_key_id]',
      note: token,
    });
    expect(report.byRule).toEqual({ secret_field: 1, aws_access_key_id: 1 });
    expect(redactValue({ password: 'short', api_key: null, secret: 42 }).report.total).toBe(0);
  });

  it('keeps allowed values (a task’s own fake fixture credentials)', () => {
    const fake = `sk_live_${rand(24)}`;
    const other = `sk_live_${rand(24)}`;
    const r = redactText(`${fake} ${other}`, new Set([fake]));
    expect(r.text).toBe(`${fake} [REDACTED:stripe]`);
  });
});

describe('redactValue on a whole trajectory', () => {
  const key = `sk-proj-${rand(40)}`;
  const trajectory = {
    id: 7,
    messages: [
      { role: 'system', content: 'You are a helpful agent.' },
      { role: 'user', content: `my key is ${key}, please configure it`, origin: 'task' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'config_set', arguments: JSON.stringify({ api_key: key, retries: 3 }) },
            parsed_arguments: { api_key: key, retries: 3, ratio: new PyFloat(328) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', name: 'config_set', content: `{"ok": true, "echo": "${key}"}` },
    ],
    dispatches: [{ call_id: 'c1', args: { headers: { Authorization: `Bearer ${rand(40)}` } }, body: { n: 1 } }],
  };

  it('redacts messages, raw and parsed tool arguments, tool results and dispatches, and reports where', () => {
    const { value, report } = redactValue(trajectory);
    const text = JSON.stringify(value);
    expect(text).not.toContain(key);
    expect(report.total).toBe(5);
    expect(report.byRule).toEqual({ openai: 4, bearer: 1 });
    expect(report.where.map((w) => w.path)).toEqual([
      'messages.1.content',
      'messages.2.tool_calls.0.function.arguments',
      'messages.2.tool_calls.0.parsed_arguments.api_key',
      'messages.3.content',
      'dispatches.0.args.headers.Authorization',
    ]);
    expect(value.messages[2]!.tool_calls![0]!.parsed_arguments.api_key).toBe('[REDACTED:openai]');
  });

  it('returns a copy: the input is untouched, unchanged parts are shared, PyFloat is kept', () => {
    const before = JSON.stringify(trajectory);
    const { value } = redactValue(trajectory);
    expect(JSON.stringify(trajectory)).toBe(before);
    expect(value).not.toBe(trajectory);
    expect(value.messages[0]).toBe(trajectory.messages[0]);
    expect(value.dispatches[0]!.body).toBe(trajectory.dispatches[0]!.body);
    expect(value.messages[2]!.tool_calls![0]!.parsed_arguments.ratio).toBe(
      trajectory.messages[2]!.tool_calls![0]!.parsed_arguments.ratio,
    );
    const clean = { a: ['x', { b: 'y' }] };
    const r = redactValue(clean);
    expect(r.value).toBe(clean);
    expect(r.report).toEqual({ total: 0, byRule: {}, where: [] });
  });

  it('error envelopes: the message and details are redacted; successes pass through', () => {
    const secret = `sk-ant-api03-${rand(80)}`;
    const failed = {
      ok: false as const,
      error: { code: 'UPSTREAM', message: `401 from provider: invalid key ${secret}`, details: { key: secret } },
    };
    const out = redactErrorResult(failed);
    expect(JSON.stringify(out)).not.toContain(secret);
    expect(out.error.message).toBe('401 from provider: invalid key [REDACTED:anthropic]');
    const ok = { ok: true as const, data: { note: secret } };
    expect(redactErrorResult(ok)).toBe(ok);
  });
});
