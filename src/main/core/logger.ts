/** Structured logger. Never pass secrets (API keys, tokens) as fields. */
export type Logger = {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const stderrLogger: Logger = {
  info: (msg, f) => process.stderr.write(`[info] ${msg}${f ? ` ${JSON.stringify(f)}` : ''}\n`),
  warn: (msg, f) => process.stderr.write(`[warn] ${msg}${f ? ` ${JSON.stringify(f)}` : ''}\n`),
  error: (msg, f) => process.stderr.write(`[error] ${msg}${f ? ` ${JSON.stringify(f)}` : ''}\n`),
};
