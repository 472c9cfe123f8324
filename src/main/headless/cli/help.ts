import type { Command, OptionSpec } from './command';

/**
 * The command named by the leading words (the longest match wins: `traces import` over `traces`).
 * `words` are the positionals of a lenient first parse that knows only the global flags, so flags
 * may stand anywhere; a value of a command's own flag given before its words is not supported.
 */
export function findCommand(commands: readonly Command[], words: readonly string[]): Command | undefined {
  let best: Command | undefined;
  for (const c of commands)
    if (c.words.every((w, k) => words[k] === w) && (!best || c.words.length > best.words.length)) best = c;
  return best;
}

const flagText = (name: string, o: OptionSpec) =>
  `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;

function optionLines(opts: Record<string, OptionSpec>): string[] {
  const entries = Object.entries(opts);
  const width = Math.max(...entries.map(([n, o]) => flagText(n, o).length)) + 2;
  return entries.map(([n, o]) => `  ${flagText(n, o).padEnd(width)}${o.description}`);
}

const signature = (c: Command) => `coworkenv ${[...c.words, c.args ?? ''].filter(Boolean).join(' ')}`;

/** `coworkenv --help`: every command of the table with its summary, then the global options. */
export function usageText(commands: readonly Command[], global: Record<string, OptionSpec>): string {
  const lines = ['coworkenv — CoworkEnv Studio from the terminal', '', 'Usage:'];
  for (const c of commands) {
    const sig = signature(c);
    lines.push(sig.length < 44 ? `  ${sig.padEnd(44)}${c.summary}` : `  ${sig}\n  ${''.padEnd(44)}${c.summary}`);
  }
  lines.push('', 'Global options:', ...optionLines(global), '');
  lines.push("Run 'coworkenv <command> --help' for a command's options.");
  lines.push('Exit codes: 0 success, 1 the procedure failed, 2 usage error.');
  return lines.join('\n');
}

/** `coworkenv <command> --help`. */
export function commandHelp(c: Command, global: Record<string, OptionSpec>): string {
  const lines = [`Usage: ${signature(c)}${c.options ? ' [options]' : ''}`, '', c.summary];
  if (c.details?.length) lines.push('', ...c.details);
  if (c.options) lines.push('', 'Options:', ...optionLines(c.options));
  lines.push('', 'Global options:', ...optionLines(global));
  return lines.join('\n');
}
