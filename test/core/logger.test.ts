import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Logger, redactingLogger, stderrLogger } from '../../src/main/core/logger';

const key = () => `sk-proj-${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}9`;
afterEach(() => vi.restoreAllMocks());

describe('log output never carries a key', () => {
  it('stderrLogger redacts the message and the fields', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    const k = key();
    stderrLogger.info(`calling the model with ${k}`, { headers: { authorization: `Bearer ${k}` }, n: 3 });
    stderrLogger.warn('retry', { body: `{"api_key": "${k}"}` });
    stderrLogger.error(`failed: ${k}`);
    const out = written.join('');
    expect(out).not.toContain(k);
    expect(out).toContain('[info] calling the model with [REDACTED:openai]');
    expect(out).toContain('"n":3');
    expect(written).toHaveLength(3);
  });

  it('redactingLogger wraps any logger (for the one createCore is given)', () => {
    const seen: [string, unknown][] = [];
    const inner: Logger = {
      info: (m, f) => void seen.push([m, f]),
      warn: (m, f) => void seen.push([m, f]),
      error: (m, f) => void seen.push([m, f]),
    };
    const k = key();
    const log = redactingLogger(inner);
    log.info(`key ${k}`, { k });
    log.error('plain', undefined);
    expect(seen).toEqual([
      ['key [REDACTED:openai]', { k: '[REDACTED:openai]' }],
      ['plain', undefined],
    ]);
  });
});
