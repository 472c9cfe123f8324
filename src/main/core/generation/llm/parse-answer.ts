/**
 * The JSON object in a model's answer. Model output is data: parsed, never evaluated. Tried in
 * order: the whole text; each fenced code block (```json … ```); each balanced {…} span found by
 * a scan that respects strings and escapes (outermost first). Reasoning models' <think>…</think> blocks are dropped
 * first (they often hold draft JSON). The first candidate that parses to an object wins.
 */
export type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function tryParse(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Each balanced {…} span by where it starts (strings and escapes respected; unbalanced tails skipped). */
function* braceSpans(text: string): Generator<string> {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        yield text.slice(start, i + 1); // a span that does not parse: its inner spans are tried next
        break;
      }
    }
  }
}

export function parseAnswer(answer: string | null): Parsed {
  if (answer === null || !answer.trim()) return { ok: false, reason: 'the answer is empty' };
  const text = answer.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const whole = tryParse(text);
  if (whole) return { ok: true, value: whole };
  for (const m of text.matchAll(/```[a-zA-Z]*\s*\n([\s\S]*?)```/g)) {
    const v = tryParse(m[1]!.trim());
    if (v) return { ok: true, value: v };
  }
  for (const span of braceSpans(text)) {
    const v = tryParse(span);
    if (v) return { ok: true, value: v };
  }
  const head = JSON.stringify(text.slice(0, 80));
  return {
    ok: false,
    reason: text.includes('{')
      ? `the answer holds no parseable JSON object (starts ${head})`
      : `the answer is not JSON (starts ${head})`,
  };
}
