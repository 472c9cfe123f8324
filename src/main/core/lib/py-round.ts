/**
 * Python's round(x, n): correctly rounded from the exact binary value, ties to even. JS's
 * toFixed picks the larger on a tie and Math.round(x·10ⁿ)/10ⁿ rounds an inexact product, so
 * both disagree with Claw-Eval's scores on some inputs (e.g. round(0.03125, 4) = 0.0312).
 */
export function pyRound(x: number, n: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  // An integer is its own rounding to n ≥ 0 places (scores of 1 and 0 are most of them; BigInt math is slow).
  if (n >= 0 && Number.isInteger(x)) return x;
  // x = m · 2^e exactly, with m an integer.
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  const expBits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & 0xfffffffffffffn;
  const m = expBits === 0 ? frac : frac | (1n << 52n);
  const e = (expBits === 0 ? 1 : expBits) - 1075;
  // scaled = x · 10^n = num / den, exactly.
  let num = m * 10n ** BigInt(Math.max(n, 0));
  let den = 10n ** BigInt(Math.max(-n, 0));
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  const digits = q.toString();
  const s =
    n > 0
      ? digits.length > n
        ? `${digits.slice(0, -n)}.${digits.slice(-n)}`
        : `0.${digits.padStart(n, '0')}`
      : `${digits}${'0'.repeat(-n)}`;
  const out = Number(s);
  return neg ? -out : out;
}
