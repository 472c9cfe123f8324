import { redactText, redactValue } from './lib/redact';

/**
 * Structured logger. Never pass secrets (API keys, tokens) as fields: log output is redacted anyway (lib/redact.ts).
 */
export type Logger = {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Wraps a logger so that what reaches it has key-like strings redacted (message and every field). */
export function redactingLogger(inner: Logger): Logger {
  const clean =
    (level: keyof Logger) =>
    (msg: string, fields?: Record<string, unknown>): void =>
      inner[level](redactText(msg).text, fields === undefined ? undefined : redactValue(fields).value);
  return { info: clean('info'), warn: clean('warn'), error: clean('error') };
}

const line = (level: string) => (msg: string, f?: Record<string, unknown>) =>
  void process.stderr.write(`[${level}] ${msg}${f ? ` ${JSON.stringify(f)}` : ''}\n`);

export const stderrLogger: Logger = redactingLogger({ info: line('info'), warn: line('warn'), error: line('error') });
