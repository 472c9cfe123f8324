import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactText, redactValue } from '../../src/main/core/lib/redact';
import { isSecretName } from '../../src/main/core/lib/secrets/names';

// Made at run time: no key-shaped literal sits in the repository for a secret scanner to flag.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const AN = B64.slice(0, 62);
const rand = (n: number, chars = AN) =>
  `${chars[7]}${[...randomBytes(n - 2)].map((b) => chars[b % chars.length]).join('')}7`;
const awsSecret = () => rand(40, B64);

describe('the four shapes every SFT dialect kept (issue 16)', () => {
  const aws = awsSecret();
  const pwd = `Tr0ub4dor&3${rand(4)}`;
  const token = rand(24);
  const opaque = rand(20);

  it('an AWS secret under aws_secret_access_key: parsed JSON, JSON text, tool arguments, ini and env text', () => {
    const parsed = { aws_access_key_id: 'AKIDEXAMPLE', aws_secret_access_key: aws, region: 'us-east-1' };
    const v = redactValue(parsed).value;
    expect(v.aws_secret_access_key).toBe('[REDACTED:secret_field]');
    expect(v.region).toBe('us-east-1');
    for (const text of [
      JSON.stringify(parsed),
      JSON.stringify({ name: 'configure', arguments: JSON.stringify(parsed) }),
      `[default]\naws_secret_access_key = ${aws}\nregion = us-east-1`,
      `export AWS_SECRET_ACCESS_KEY=${aws}`,
      `aws configure set aws_secret_access_key ${aws}`.replace(' aws_secret_access_key ', ' aws_secret_access_key='),
    ])
      expect(redactText(text).text, text).not.toContain(aws);
  });

  it('the value of a pwd field, whatever it looks like, and pwd=… in text', () => {
    expect(redactValue({ user: 'admin', pwd }).value).toEqual({ user: 'admin', pwd: '[REDACTED:secret_field]' });
    const args = JSON.stringify({ user: 'admin', pwd });
    expect(redactText(args).text).toBe('{"user":"admin","pwd":"[REDACTED:secret_field]"}');
    expect(redactText(JSON.stringify({ arguments: args })).text).not.toContain(pwd);
    expect(redactText(`mysql -u admin pwd=${pwd.replace('&', 'x')}9Q`).text).not.toContain(pwd.slice(0, 8));
  });

  it('the value of a token field (and of …Token / _token fields), and token: … in text', () => {
    for (const key of ['token', 'session_token', 'accessToken', 'x-auth-token'])
      expect(redactValue({ [key]: token }).report.total, key).toBe(1);
    expect(redactText(`{"token": "${token}", "expires_in": 3600}`).text).toBe(
      '{"token": "[REDACTED:secret_field]", "expires_in": 3600}',
    );
    expect(redactText(`Your new token: ${token}. Keep it safe.`).text).not.toContain(token);
  });

  it('an opaque key after an "api key:"-style label in plain text', () => {
    for (const text of [
      `Here is my api key: ${opaque}`,
      `API-Key = ${opaque}`,
      `API Key:${opaque}, please use it`,
      `token: ${opaque}`,
      `The access token is below.\naccess token: ${opaque}`,
      `secret key = "${opaque}"`,
    ]) {
      const r = redactText(text);
      expect(r.text, text).not.toContain(opaque);
      expect(Object.keys(r.counts).length, text).toBeGreaterThan(0);
    }
    expect(redactText(`api key: ${opaque} (rotate monthly)`).text).toBe(
      'api key: [REDACTED:secret_label] (rotate monthly)',
    );
  });
});

describe('no false positives that would damage training data', () => {
  it('"token" as a word or a count, and other non-credential names, stay', () => {
    const keep = [
      'the token count is 5',
      'token_count: 12',
      'max_tokens=1024 and prompt_tokens: 3512',
      'Tokens: 1,234 used of 8,000',
      'Enter your token: below, then press OK',
      'API key: see the settings page',
      'Password: Sunshine is weak',
      'Each token: a word piece like "straw" + "berry"',
      'the tokenizer: cl100k_base, vocabulary 100277',
      '{"token_type": "Bearer", "expires_in": 3600}',
      'primary key: order_id; sort key: created_at',
      'keyboard: US-International-2024',
    ];
    for (const t of keep) expect(redactText(t), t).toEqual({ text: t, counts: {} });
  });

  it('fields named like credentials but holding none', () => {
    const value = {
      token_count: 12,
      max_tokens: '1024',
      nextPageToken: 'CAEQAA1234567890',
      page_token: 'p_0000000123',
      eos_token: '<|endoftext|>',
      pwd: '/home/user/project',
      password_hint: 'the name of your first pet',
      token: '5',
      primary_key: 'reservation_id',
      keyword: 'refund policy 2024',
    };
    const r = redactValue(value);
    expect(r.report.where).toEqual([]);
    expect(r.value).toBe(value);
    expect(redactText(JSON.stringify(value)).counts).toEqual({});
  });

  it('names: only a credential name at the end counts', () => {
    const yes = ['password', 'pwd', 'token', 'api_key', 'apiKey', 'API-Key', 'api key', 'clientSecret'];
    const no = ['token_count', 'max_tokens', 'tokenizer', 'keyword', 'primary_key', 'next_page_token', 'pwd_hint'];
    for (const n of [...yes, 'aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'refresh_token', 'db_passwd'])
      expect(isSecretName(n), n).toBe(true);
    for (const n of no) expect(isSecretName(n), n).toBe(false);
  });
});
