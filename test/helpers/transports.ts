import http from 'node:http';
import { runCli, type CliIo } from '../../src/main/headless/cli';
import type { HttpServer } from '../../src/main/headless/http';
import type { ApiResult } from '../../src/shared/contract';
import { FIXED_NOW, TS_WORKER } from './test-core';

/** Runs the CLI in-process with captured output. */
export async function runCliCaptured(argv: string[], io: Partial<CliIo> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env: {},
    ...io,
    coreOptions: { clock: () => FIXED_NOW, watchIntervalMs: 0, ...TS_WORKER, ...io.coreOptions },
  });
  return { code, stdout, stderr };
}

/**
 * `coworkenv --json --workspace FILE call NAME --input JSON` in-process; answers the envelope it printed and the exit
 * code.
 */
export async function cliCall(workspace: string, name: string, input?: unknown) {
  const argv = [
    '--json',
    '--workspace',
    workspace,
    'call',
    name,
    ...(input === undefined ? [] : ['--input', JSON.stringify(input)]),
  ];
  const r = await runCliCaptured(argv);
  const lines = r.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one JSON line from the CLI, got: ${r.stdout}\n${r.stderr}`);
  return { envelope: JSON.parse(lines[0]!) as ApiResult<unknown>, code: r.code, stderr: r.stderr };
}

/** POST /rpc/NAME with the token; answers the status and the parsed envelope. */
export async function httpCall(server: Pick<HttpServer, 'url' | 'token'>, name: string, input?: unknown) {
  const res = await fetch(`${server.url}/rpc/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    ...(input === undefined ? {} : { body: JSON.stringify(input) }),
  });
  return { status: res.status, envelope: (await res.json()) as ApiResult<unknown>, headers: res.headers };
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A request with full control over the path and headers (fetch normalises paths and forbids a Host header). */
export function rawRequest(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
