import path from 'node:path';

/**
 * How the built renderer is served, the same in browser mode (headless/static-files.ts) and in the desktop app
 * (electron/app-protocol.ts, electron/security.ts): its Content-Security-Policy and the content types of its files.
 * Neither transport owns it, so neither imports the other.
 */
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

/** The renderer's policy wherever it is served (browser mode and the Electron window); ag-grid needs inline styles. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' " +
  "data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
