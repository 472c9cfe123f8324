import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { CONTENT_SECURITY_POLICY, contentTypeOf } from '../renderer-serving';

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
