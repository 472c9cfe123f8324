/**
 * Go (RE2) regular expressions as JavaScript ones, for the vendored gitleaks rules. What RE2 has and
 * Node 20's RegExp has not: flag groups that turn case-insensitivity on or off for part of a pattern
 * ((?i), (?i:…), (?-i:…): JavaScript's modifiers need V8 12.5), (?s:…), (?P<name>…), [[:alnum:]], \z
 * and \A. Case-insensitive parts are spelled out ([aA], a-z → a-zA-Z) instead of using the i flag, so a
 * case-sensitive part inside them stays exact. Throws on anything else it does not know.
 */

const POSIX: Record<string, string> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
  space: '\\t\\n\\v\\f\\r ',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

const isLetter = (c: string) => /^[A-Za-z]$/.test(c);
const other = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

type Flags = { i: boolean; s: boolean };

/** The flags a group such as (?i), (?-i:, (?is: sets, applied to `f`. */
function setFlags(f: Flags, spec: string): Flags {
  const [on = '', off = ''] = spec.split('-');
  const next = { ...f };
  for (const c of on + off) if (c !== 'i' && c !== 's') throw new Error(`unsupported flag ${c} in (?${spec})`);
  if (on.includes('i')) next.i = true;
  if (on.includes('s')) next.s = true;
  if (off.includes('i')) next.i = false;
  if (off.includes('s')) next.s = false;
  return next;
}

/** A character class starting at src[start] === '[': its JavaScript text and where it ends. */
function charClass(src: string, start: number, ci: boolean): { text: string; end: number } {
  let i = start + 1;
  let out = '';
  const negated = src[i] === '^';
  if (negated) i++;
  const extra: string[] = [];
  for (let first = true; first || src[i] !== ']'; first = false) {
    if (i >= src.length) throw new Error('unterminated character class');
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(src.slice(i));
    if (posix) {
      if (posix[1] || !POSIX[posix[2]!]) throw new Error(`unsupported class ${posix[0]}`);
      out += POSIX[posix[2]!];
      i += posix[0].length;
      continue;
    }
    if (src[i] === '\\') {
      const esc = src[i + 1] === 'x' ? src.slice(i, i + 4) : src.slice(i, i + 2);
      out += esc;
      i += esc.length;
      if (src[i] === '-' && src[i + 1] !== ']') throw new Error(`unsupported range from ${esc}`);
      continue;
    }
    const c = src[i]!;
    const range = src[i + 1] === '-' && src[i + 2] !== ']' && src[i + 2] !== undefined;
    if (range) {
      if (src[i + 2] === '\\' || src[i + 2] === '[') throw new Error(`unsupported range to ${src.slice(i + 2, i + 4)}`);
      const to = src[i + 2]!;
      out += `${c}-${to}`;
      if (ci && isLetter(c) && isLetter(to) && (c === c.toLowerCase()) === (to === to.toLowerCase()))
        extra.push(`${other(c)}-${other(to)}`);
      i += 3;
      continue;
    }
    out += c === '[' || c === ']' || c === '-' ? `\\${c}` : c;
    if (ci && isLetter(c)) extra.push(other(c));
    i++;
  }
  // The other case's letters first: after the class's own text a trailing '-' would make a range of them.
  return { text: `[${negated ? '^' : ''}${extra.join('')}${out}]`, end: i + 1 };
}

/** The JavaScript source of a Go pattern (compile it without the i flag). */
export function goRegexSource(src: string): string {
  let out = '';
  let flags: Flags = { i: false, s: false };
  const stack: Flags[] = [];
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '\\') {
      const next = src[i + 1];
      if (next === 'z') out += '$';
      else if (next === 'A') out += '^';
      else if (next === 'Q' || next === 'p' || next === 'P') throw new Error(`unsupported escape \\${next}`);
      else if (next === 'x') {
        out += src.slice(i, i + 4);
        i += 2;
      } else out += `\\${next}`; // \b \w \s \d \n \t, \. …: the same in both
      i += 2;
    } else if (c === '[') {
      const cls = charClass(src, i, flags.i);
      out += cls.text;
      i = cls.end;
    } else if (c === '(') {
      const flag = /^\(\?([a-zA-Z-]*)([:)])/.exec(src.slice(i));
      const named = /^\(\?P<(\w+)>/.exec(src.slice(i));
      if (!flag && !named && src[i + 1] === '?') throw new Error(`unsupported group ${src.slice(i, i + 4)}`);
      if (flag?.[2] === ')')
        flags = setFlags(flags, flag[1]!); // for the rest of the enclosing group
      else {
        stack.push(flags);
        if (flag) flags = setFlags(flags, flag[1]!);
        out += flag ? '(?:' : named ? `(?<${named[1]}>` : '(';
      }
      i += flag ? flag[0].length : named ? named[0].length : 1;
    } else if (c === ')') {
      flags = stack.pop() ?? flags;
      out += ')';
      i++;
    } else {
      out += c === '.' && flags.s ? '[\\s\\S]' : flags.i && isLetter(c) ? `[${c}${other(c)}]` : c;
      i++;
    }
  }
  return out;
}

/** The compiled pattern: global, with match indices (to locate the secret's group). */
export const goRegex = (src: string, extraFlags = ''): RegExp => new RegExp(goRegexSource(src), `gd${extraFlags}`);
