import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Tokenizer } from '@huggingface/tokenizers';
import type { ChatTemplateId } from '../../../../../shared/contract/entities/export';
import { resourceDir } from './resource-dir';

/** The tokenizer folder of each template's model (resources/tokenizers/README.md says where each comes from). */
const TOKENIZER_OF: Record<ChatTemplateId, string> = { 'qwen2.5': 'qwen2.5', qwen3: 'qwen3', 'llama3.1': 'llama3.1' };

export type TokenCounter = { count(text: string): number };

const loaded = new Map<string, TokenCounter>();

/** Segments kept per tokenizer: enough for every distinct system prompt and tools block of a large export. */
const CACHE_LIMIT = 20_000;
/** Only long segments are worth remembering (a system prompt, a tools block); short ones encode fast. */
const CACHE_MIN_CHARS = 256;

/**
 * Counts the tokens of rendered text with the model's real tokenizer (loaded once per process: ~1–3 s).
 *
 * Special tokens (<|im_start|>, <|eot_id|> …) split the text before any pre-tokenisation, so the count of a
 * conversation is exactly the sum of its pieces' counts: a piece that repeats across records — the same task's
 * system prompt and tools block — is encoded once and its count remembered. Exact, not an estimate.
 */
export function tokenCounter(id: ChatTemplateId): TokenCounter {
  const name = TOKENIZER_OF[id];
  let c = loaded.get(name);
  if (!c) {
    c = load(name);
    loaded.set(name, c);
  }
  return c;
}

function load(name: string): TokenCounter {
  const dir = path.join(resourceDir('tokenizers'), name);
  const json = JSON.parse(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'tokenizer.json.br'))).toString());
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8'));
  const tokenizer = new Tokenizer(json, config);
  const specials = (json.added_tokens as { content: string; special: boolean }[])
    .filter((t) => t.special)
    .map((t) => t.content);
  const split = new RegExp(`(${specials.map(escapeRegExp).join('|')})`);
  const specialSet = new Set(specials);
  const cache = new Map<string, number>();
  const encoded = (s: string) => tokenizer.encode(s, { add_special_tokens: false }).ids.length;
  return {
    count(text) {
      let n = 0;
      for (const piece of text.split(split)) {
        if (!piece) continue;
        if (specialSet.has(piece)) n++;
        else if (piece.length < CACHE_MIN_CHARS) n += encoded(piece);
        else {
          let k = cache.get(piece);
          if (k === undefined) {
            k = encoded(piece);
            if (cache.size >= CACHE_LIMIT) cache.clear();
            cache.set(piece, k);
          }
          n += k;
        }
      }
      return n;
    },
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
