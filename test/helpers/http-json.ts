import http from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: test answers are inspected loosely
export type JsonAnswer = { status: number; headers: http.IncomingHttpHeaders; body: any; text: string };

/** One HTTP request with full control of the headers (fetch cannot set Host); the answer parsed as JSON. */
export function request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  agent?: http.Agent,
): Promise<JsonAnswer> {
  const u = new URL(path, base);
  const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: u.hostname,
        port: u.port,
        path: u.pathname,
        method,
        agent,
        headers: {
          ...(data !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
