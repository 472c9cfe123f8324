import fs from 'node:fs';
import path from 'node:path';
import { Template } from '@huggingface/jinja';
import type { ChatTemplateId } from '../../../../../shared/contract/entities/export';
import { resourceDir } from './resource-dir';

/** What apply_chat_template passes a template besides messages and tools (tokenizer_config.json's tokens). */
type TemplateSpec = { file: string; bos: string | null; eos: string };

export const CHAT_TEMPLATES: Record<ChatTemplateId, TemplateSpec> = {
  'qwen2.5': { file: 'qwen2.5.jinja', bos: null, eos: '<|im_end|>' },
  qwen3: { file: 'qwen3.jinja', bos: null, eos: '<|im_end|>' },
  'llama3.1': { file: 'llama3.1.jinja', bos: '<|begin_of_text|>', eos: '<|eot_id|>' },
};

const compiled = new Map<ChatTemplateId, Template>();

function templateOf(id: ChatTemplateId): Template {
  let t = compiled.get(id);
  if (!t) {
    const file = path.join(resourceDir('chat-templates'), CHAT_TEMPLATES[id].file);
    t = new Template(fs.readFileSync(file, 'utf8'));
    compiled.set(id, t);
  }
  return t;
}

export type ChatInput = { messages: Record<string, unknown>[]; tools: Record<string, unknown>[] };

/**
 * The text a trainer's tokenizer.apply_chat_template(messages, tools=tools) gives for a whole conversation (no
 * generation prompt), or why the template refused it (its raise_exception message, or the engine's error).
 */
export function renderChat(
  id: ChatTemplateId,
  chat: ChatInput,
): { ok: true; text: string } | { ok: false; why: string } {
  const spec = CHAT_TEMPLATES[id];
  try {
    const text = templateOf(id).render({
      messages: chat.messages,
      // An empty list is falsy in Jinja as in Python: the templates then render no tools block.
      tools: chat.tools.length ? chat.tools : null,
      bos_token: spec.bos ?? '',
      eos_token: spec.eos,
      add_generation_prompt: false,
    });
    return { ok: true, text };
  } catch (e) {
    return { ok: false, why: e instanceof Error ? e.message : String(e) };
  }
}
