import fs from 'node:fs/promises';
import path from 'node:path';
import type { CustomScheme } from 'electron';
import { CONTENT_SECURITY_POLICY, contentTypeOf } from '../renderer-serving';

/**
 * The packaged renderer is served from coworkenv://app/ instead of file://: a file:// page may read
 * any file:// URL and shares one origin with every local file, while a custom standard scheme gives
 * the app its own origin, our CSP on every response, and lets the GrantFileProtocolExtraPrivileges
 * fuse go off (scripts/flip-fuses.mjs).
 */
export const APP_SCHEME = 'coworkenv';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Registered before the app is ready. standard: real origin and relative URLs; secure: a secure
 * context like https; supportFetchAPI: module scripts and fetch load from it; codeCache: V8 caches
 * the bundle. Never bypassCSP.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
} as const satisfies CustomScheme;

const headers = (extra: Record<string, string> = {}) => ({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
  ...extra,
});
const refuse = (status: number, text: string) =>
  new Response(text, { status, headers: headers({ 'content-type': 'text/plain; charset=utf-8' }) });

/**
 * protocol.handle's handler: the file under `rendererDir` that the URL names, or a refusal. Paths
 * are decoded once and must stay inside the folder (encoded "..", "\" and NUL included); there is
 * no fallback to index.html, the app routes by hash. Reads go through fs, which Electron's asar
 * support patches, so a packaged app.asar works the same.
 */
export async function rendererResponse(
  rendererDir: string,
  request: Pick<Request, 'url' | 'method'>,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'method not allowed\n');
  const url = new URL(request.url);
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return refuse(404, 'not found\n');
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname);
  } catch {
    return refuse(400, 'malformed path\n');
  }
  if (rel.includes('\0') || rel.includes('\\')) return refuse(400, 'malformed path\n');
  if (rel === '/') rel = '/index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${rel}`);
  if (!file.startsWith(root + path.sep)) return refuse(403, 'outside the app\n');
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    return refuse(404, 'not found\n');
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: headers({ 'content-type': contentTypeOf(file) }),
  });
}
