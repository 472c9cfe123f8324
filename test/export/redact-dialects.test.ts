import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

/**
 * Issue 16: four credential shapes reached every SFT dialect unredacted. A stored trajectory holding
 * them (a user's message, a tool call's arguments, a tool's result) is exported in each dialect, and
 * no file of the export may hold any of them.
 */
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const rand = (n: number, chars = AN) =>
  `${chars[3]}${[...randomBytes(n - 2)].map((b) => chars[b % chars.length]).join('')}7`;
const SECRETS = {
  aws: rand(40, `${AN}+/`),
  pwd: `Tr0ub4dor&3${rand(6)}`,
  token: rand(24),
  opaque: rand(20),
};
const GUNZIP = { GZIP: (input: Uint8Array) => new Uint8Array(zlib.gunzipSync(input)) };

function record(i: number) {
  const args = JSON.stringify({ host: 'db.internal', user: 'admin', pwd: SECRETS.pwd });
  const result = JSON.stringify({
    profile: 'default',
    aws_secret_access_key: SECRETS.aws,
    session: { token: SECRETS.token, expires_in: 3600 },
  });
  return {
    messages: [
      { role: 'system', content: 'You are an operations assistant.' },
      { role: 'user', content: `Connect to the database (case ${i}). My api key: ${SECRETS.opaque}` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'db_connect', arguments: args } }],
      },
      { role: 'tool', tool_call_id: `c${i}`, content: result },
      { role: 'assistant', content: 'Connected; the credentials are configured.' },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: 'db_connect',
          description: 'Connect to a database',
          parameters: {
            type: 'object',
            properties: { host: { type: 'string' }, user: { type: 'string' }, pwd: { type: 'string' } },
            required: ['host', 'user', 'pwd'],
          },
        },
      },
    ],
  };
}

async function filesText(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const p = path.join(dir, f);
    if (!fs.statSync(p).isFile()) continue;
    if (!p.endsWith('.parquet')) parts.push(fs.readFileSync(p, 'utf8'));
    else {
      const file = new Uint8Array(fs.readFileSync(p)).buffer;
      parts.push(JSON.stringify(await parquetReadObjects({ file, compressors: GUNZIP }), (_, v) => v));
    }
  }
  return parts.join('\n');
}

describe('SFT export redacts the four shapes in every dialect', () => {
  let core: Core;
  let dir: string;
  beforeAll(async () => {
    const t = createTestCore();
    core = t.core;
    dir = t.dir;
    const file = path.join(dir, 'ops.jsonl');
    fs.writeFileSync(file, `${[0, 1, 2].map((i) => JSON.stringify(record(i))).join('\n')}\n`);
    const { jobId } = await ok(core, 'trajectories.import', { paths: [file] });
    const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    expect(job.state, job.error ?? '').toBe('done');
  }, 90_000);
  afterAll(() => core.close());

  for (const dialect of ['trl', 'openai', 'llamafactory', 'verl'] as const)
    it(`${dialect}: no secret in any file, and the report counts them`, async () => {
      const outDir = path.join(dir, `out-${dialect}`);
      const selection = { allUncurated: true };
      // Imported chats carry no reward: the mixed pool takes them all.
      const options = { pools: { mixed: { minReward: null, converter: true } } };
      const { jobId } = await ok(core, 'export.sft', { dialect, outDir, selection, options } as never);
      const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
      expect(job.state, job.error ?? '').toBe('done');
      const text = await filesText(outDir);
      expect(text).toContain('Connected; the credentials are configured.');
      for (const [shape, secret] of Object.entries(SECRETS)) expect(text, shape).not.toContain(secret);
      const result = job.result as { report: { exported: number }; redaction: { records: number } };
      expect(result.report.exported).toBe(3);
      expect(result.redaction.records).toBe(3);
    }, 90_000);
});
