import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Type for a file we serve; unknown kinds are opaque bytes (never sniffed: nosniff). */
export const contentTypeOf = (file: string): string =>
  TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Same policy as the Electron window (src/main/electron/security.ts); ag-grid needs inline styles. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' " +
  "data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Serves the built renderer; unknown paths get index.html (the app routes by hash). Never leaves `root`. */
export function serveStatic(root: string | undefined, urlPath: string, res: ServerResponse): void {
  if (!root || !fs.existsSync(path.join(root, 'index.html'))) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
    res.end('The renderer is not built. Run `npm run build`, then reload.\n');
    return;
  }
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    rel = '/';
  }
  let file = path.resolve(root, `.${rel}`);
  if (!file.startsWith(path.resolve(root) + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    file = path.join(root, 'index.html');
  }
  res.writeHead(200, {
    'content-type': contentTypeOf(file),
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': file.endsWith('index.html') ? 'no-cache' : 'public, max-age=3600',
  });
  fs.createReadStream(file).pipe(res);
}
