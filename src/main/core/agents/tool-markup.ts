import { randomBytes } from 'node:crypto';
import type { PyObject, PyValue } from '../py/pyjson';
import { PyFloat, parsePyJson } from '../py/pyjson';

/**
 * Claw-Eval's fallback for servers without native tool calls (providers/openai_compat.py
 * _extract_text_tool_calls): `<tool_call><function=NAME><parameter=K>V</parameter></tool_call>`
 * in the text becomes tool calls with ids `fallback_<hex12>`, values coerced as upstream does, and
 * the markup is cut from the text. Used only when the answer has no native tool calls.
 */
const BLOCK = /<tool_call>\s*(.*?)\s*<\/tool_call>/gis;
const FUNCTION = /<function\s*=\s*([a-zA-Z0-9_:-]+)\s*>/i;
const PARAM = /<parameter\s*=\s*([a-zA-Z0-9_:-]+)\s*>(.*?)<\/parameter>/gis;

function coerce(raw: string): PyValue {
  const v = raw.trim();
  if (!v) return '';
  const low = v.toLowerCase();
  if (low === 'true') return true;
  if (low === 'false') return false;
  if (low === 'null') return null;
  // Python int() is exact at any size; a JS number is not beyond 2^53 — keep such a value as text.
  if (/^-?\d+$/.test(v)) return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (/^-?\d+\.\d+$/.test(v)) return new PyFloat(Number(v));
  if ((v.startsWith('{') && v.endsWith('}')) || (v.startsWith('[') && v.endsWith(']'))) {
    try {
      return parsePyJson(v);
    } catch {
      return v;
    }
  }
  return v;
}

export type MarkupCall = { id: string; name: string; input: PyObject };

/** The calls written as markup in `text`, and the text without them (unchanged when there are none). */
export function extractMarkupCalls(text: string): { text: string; calls: MarkupCall[] } {
  if (!text.toLowerCase().includes('<tool_call')) return { text, calls: [] };
  const calls: MarkupCall[] = [];
  for (const m of text.matchAll(BLOCK)) {
    const fn = FUNCTION.exec(m[1]!);
    if (!fn) continue;
    const input: PyObject = {};
    for (const p of m[1]!.matchAll(PARAM)) input[p[1]!.trim()] = coerce(p[2]!);
    calls.push({ id: `fallback_${randomBytes(6).toString('hex')}`, name: fn[1]!.trim(), input });
  }
  if (!calls.length) return { text, calls };
  return { text: text.replace(BLOCK, '').trim(), calls };
}
