import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/main/core/logger';
import { createTestCore, tempDir } from '../helpers/test-core';

// Made at run time: no key-shaped string sits in the repository.
const key = () => `sk-proj-${randomBytes(36).toString('base64url')}`;

describe('the dispatcher and the core logger redact keys', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('an error answer that quotes a pasted key carries it redacted', async () => {
    const { core } = createTestCore();
    close = () => void core.close();
    const secret = key();
    const res = await core.dispatch('tasks.get', { taskId: secret });
    expect(res.ok).toBe(false);
    const text = JSON.stringify(res);
    expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED');
  });

  it('what a handler logs reaches the host logger redacted', async () => {
    const lines: string[] = [];
    const sink = (msg: string, f?: Record<string, unknown>) => void lines.push(msg + JSON.stringify(f ?? {}));
    const logger: Logger = { info: sink, warn: sink, error: sink };
    const secret = key();
    // The core logs the workspace path on open: a key pasted into a file name must not reach the log.
    const { core } = createTestCore({ logger, workspacePath: path.join(tempDir(), `key ${secret} .db`) });
    close = () => void core.close();
    expect(lines.some((l) => l.startsWith('workspace opened'))).toBe(true);
    expect(lines.join('\n')).not.toContain(secret);
  });
});
