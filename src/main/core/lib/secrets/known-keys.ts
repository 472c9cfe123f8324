/**
 * The endpoint keys this thread has resolved, replaced wherever they occur in text the core writes
 * or sends out: a model server may echo the key it was sent (in an answer, a tool call, an error),
 * and that text would otherwise reach trajectory bodies, generation lineage, job results, logs and
 * exports. Pattern rules cannot be relied on for this: a configured key may have any shape.
 *
 * Per thread (module state): the main process registers the keys it resolves; a job worker
 * registers the keys it was handed and those it resolves (endpoints/key-store.ts). Keys are kept in
 * memory only, like the SecretStore holding them. A key is never forgotten: text written while it
 * was configured may still be read after it is replaced.
 */

/** Shorter values are not treated as keys: "none", "EMPTY" (vLLM's convention), a test's "k" would match prose. */
export const MIN_KEY_LENGTH = 8;
export const KNOWN_KEY_RULE = 'endpoint_key';
const MARK = `[REDACTED:${KNOWN_KEY_RULE}]`;

const keys = new Set<string>();
/** Every spelling of every key, longest first; null when nothing is registered. */
let pattern: RegExp | null = null;
/** A fixed prefix each spelling starts with (the key's first 4 characters, in every encoding). */
let prefixes: string[] = [];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The key as it appears in JSON text (escaped once, and twice inside a JSON string), a URL and base64. */
function spellings(key: string): string[] {
  const json1 = JSON.stringify(key).slice(1, -1);
  const json2 = JSON.stringify(json1).slice(1, -1);
  const b64 = Buffer.from(key).toString('base64');
  return [key, json1, json2, encodeURIComponent(key), b64, b64.replace(/=+$/, '')];
}

/** Registers a configured endpoint key (null, empty or too short: nothing to do). */
export function registerKnownKey(key: string | null | undefined): void {
  if (!key || key.length < MIN_KEY_LENGTH || keys.has(key)) return;
  keys.add(key);
  const all = [...new Set([...keys].flatMap(spellings))].sort((a, b) => b.length - a.length);
  pattern = new RegExp(all.map(escapeRe).join('|'), 'g');
  prefixes = [...new Set(all.map((s) => s.slice(0, 4)))];
}

export const knownKeyCount = (): number => keys.size;

/** Replaces every registered key in `text` with `mark`; answers the text and how many were replaced. */
export function scrubKnownKeys(text: string, mark: string): { text: string; count: number } {
  if (!pattern || text.length < MIN_KEY_LENGTH || !prefixes.some((p) => text.includes(p))) return { text, count: 0 };
  let count = 0;
  const out = text.replace(pattern, () => (count++, mark));
  return { text: out, count };
}

/**
 * `text` with every registered key replaced: what writers of model-derived text (trajectory bodies, generation
 * lineage, job rows) call just before they write, whatever path the text took to get there.
 */
export const withoutKnownKeys = (text: string): string => scrubKnownKeys(text, MARK).text;

/** Tests only: forget every key. */
export function clearKnownKeysForTests(): void {
  keys.clear();
  pattern = null;
  prefixes = [];
}
