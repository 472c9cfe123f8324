import { daysFromCivil } from './pydatetime';

/**
 * Python's `datetime.strptime(s, "%Y-%m-%d")` (calendar's date argument). Its regex is not ISO:
 * month and day may have one digit ("2026-3-5"), the day may be " 5", and `\d` matches any
 * Unicode decimal digit (then read by int()). The match must cover the whole string.
 */
const ND = String.raw`\p{Nd}`;
const YMD = new RegExp(`^(${ND}${ND}${ND}${ND})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]${ND}|0[1-9]|[1-9]| [1-9])`, 'u');
const IS_ND = new RegExp(`^${ND}$`, 'u');

/** int() of Unicode decimal digits: every Nd block is a run of 0–9, so a digit's value is its place in its run. */
function pyInt(s: string): number {
  let v = 0;
  for (const ch of s.trim()) {
    let k = 0;
    let cp = ch.codePointAt(0)!;
    while (IS_ND.test(String.fromCodePoint(cp - 1))) {
      cp--;
      k++;
    }
    v = v * 10 + (k % 10);
  }
  return v;
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/** Days since 1970-01-01 of the parsed date, or undefined where Python raises ValueError. */
export function strptimeDate(s: string): number | undefined {
  const m = YMD.exec(s);
  if (!m || m[0].length !== s.length) return undefined;
  const [y, mo, d] = [pyInt(m[1]!), pyInt(m[2]!), pyInt(m[3]!)];
  const dim = [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  if (y < 1 || d > dim) return undefined;
  return daysFromCivil(y, mo, d);
}
