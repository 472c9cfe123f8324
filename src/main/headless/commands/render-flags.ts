import { type Flags, intFlag, str } from '../cli/command';

export const TEMPLATES = ['qwen2.5', 'qwen3', 'llama3.1'] as const;
const MAX = 100_000_000;

/** The flags that choose how exported records are rendered and measured (export sft, export lint). */
export const RENDER_FLAGS = {
  template: {
    type: 'string',
    value: TEMPLATES.join('|'),
    description: "render each record with this chat template (default: the dialect's; TRL qwen3, others qwen2.5)",
  },
  'max-tokens': {
    type: 'string',
    value: 'N',
    description: "report records longer than N tokens once rendered (default 1024, TRL's max_length)",
  },
  'max-chars': { type: 'string', value: 'N', description: 'the budget in characters of the rendered text instead' },
} as const;

export type RenderFlags = { template?: (typeof TEMPLATES)[number]; budget?: { unit: 'tokens' | 'chars'; max: number } };

/** The render flags read, or a usage message. */
export function renderFlags(flags: Flags): { ok: true; value: RenderFlags } | { ok: false; message: string } {
  const template = str(flags, 'template');
  if (template !== undefined && !(TEMPLATES as readonly string[]).includes(template))
    return { ok: false, message: `--template must be one of ${TEMPLATES.join(', ')}, not "${template}"` };
  if (str(flags, 'max-tokens') !== undefined && str(flags, 'max-chars') !== undefined)
    return { ok: false, message: 'give --max-tokens or --max-chars, not both' };
  const value: RenderFlags = template ? { template: template as RenderFlags['template'] } : {};
  for (const [flag, unit] of [
    ['max-tokens', 'tokens'],
    ['max-chars', 'chars'],
  ] as const) {
    if (str(flags, flag) === undefined) continue;
    const n = intFlag(flags, flag, { min: 1, max: MAX, fallback: 0 });
    if (!n.ok) return n;
    value.budget = { unit, max: n.value };
  }
  return { ok: true, value };
}
