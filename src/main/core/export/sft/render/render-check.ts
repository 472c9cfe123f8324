import type {
  ChatTemplateId,
  LengthBudget,
  RenderSummary,
  SftDialect,
} from '../../../../../shared/contract/entities/export';
import type { Issue } from '../dialects/dialect';
import { chatInputOf } from './chat-input';
import { renderChat } from './chat-templates';
import { tokenCounter } from './token-counter';
import { codePoints } from '../text';

/** The template a dialect's records are rendered with unless the user names one (its trainer's usual model). */
export const DEFAULT_TEMPLATE: Record<SftDialect, ChatTemplateId> = {
  trl: 'qwen3',
  openai: 'qwen2.5',
  llamafactory: 'qwen2.5',
  verl: 'qwen2.5',
};

const EXAMPLES = 5;

/**
 * Renders written rows with a shipped chat template as the trainer would (tokenizer.apply_chat_template through
 * @huggingface/jinja), measures each in the budget's unit (the template's real tokenizer, or characters) and says
 * which records the template refuses and which are over the budget. Findings are warnings: the records stay in the
 * export (another template may take them), and the summary counts them.
 */
export class RenderCheck {
  private readonly lengths: number[] = [];
  private readonly failures = new Map<string, { count: number; examples: string[] }>();
  private failed = 0;
  private readonly over: string[] = [];
  private overCount = 0;
  private readonly measure: (text: string) => number;

  constructor(
    readonly dialect: SftDialect,
    readonly template: ChatTemplateId,
    readonly budget: LengthBudget,
  ) {
    this.measure = budget.unit === 'tokens' ? (t) => tokenCounter(template).count(t) : codePoints;
  }

  /** Checks one row; answers its findings (none when it renders within the budget). */
  check(recordId: string, row: unknown): Issue[] {
    const r = renderChat(this.template, chatInputOf(this.dialect, row));
    if (!r.ok) {
      this.failed++;
      const f = this.failures.get(r.why) ?? { count: 0, examples: [] };
      f.count++;
      if (f.examples.length < EXAMPLES) f.examples.push(recordId);
      this.failures.set(r.why, f);
      return [
        { severity: 'warning', code: 'template_render_failed', message: `the ${this.template} template: ${r.why}` },
      ];
    }
    const n = this.measure(r.text);
    this.lengths.push(n);
    if (n <= this.budget.max) return [];
    this.overCount++;
    if (this.over.length < EXAMPLES) this.over.push(recordId);
    const unit = this.budget.unit === 'tokens' ? `tokens (${this.template} tokenizer)` : 'characters';
    return [
      {
        severity: 'warning',
        code: 'over_length_budget',
        message: `${n} ${unit} rendered with ${this.template}: more than ${this.budget.max}; a trainer truncates it`,
      },
    ];
  }

  summary(): RenderSummary {
    const sorted = [...this.lengths].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    return {
      template: this.template,
      budget: this.budget,
      rendered: sorted.length,
      failed: this.failed,
      failures: Object.fromEntries(this.failures),
      lengths: sorted.length
        ? { min: sorted[0]!, median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1]! }
        : null,
      overBudget: { count: this.overCount, examples: this.over },
    };
  }
}
