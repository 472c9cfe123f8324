import type { RejectionReason, SftDialect, SftOptions } from '../../../../../shared/contract/entities/export';
import type { AgentView } from '../agent-view';

/** A lint finding before it is tied to a record. */
export type Issue = { severity: 'error' | 'warning'; code: string; message: string };

export type Rendered<Row> =
  | { ok: true; row: Row; warnings: Issue[] }
  | { ok: false; reason: RejectionReason; detail: string };

/**
 * One trainer's format: how a view becomes a row (or why it cannot), and the rules that trainer's
 * loader enforces, checked on the row as written. `lint` takes unknown input so the tests can run it
 * on rows read back from the files by an independent reader.
 */
export type DialectSpec<Row> = {
  id: SftDialect;
  /**
   * null: the trainer renders tool calls without tool schemas (requireToolSchemas: false lets such records
   * through); otherwise why it cannot — the one explanation every such record is rejected with.
   */
  withoutSchemas: string | null;
  /** Options this dialect cannot honour, as messages (checked before anything is read). */
  optionProblems(o: SftOptions): string[];
  render(v: AgentView, o: SftOptions): Rendered<Row>;
  lint(row: unknown): Issue[];
};

export const err = (code: string, message: string): Issue => ({ severity: 'error', code, message });
export const warn = (code: string, message: string): Issue => ({ severity: 'warning', code, message });

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A plain JSON object (PyFloat, which is an object too, counts as a number, not an object). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  isRecord(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/**
 * A conversation that must end on the assistant (OpenAI, LLaMA-Factory): the view's final tool results
 * (the environment's answer to the last turn's calls, which nothing trains on) are left out, counted.
 */
export function withoutFinalResults<M>(v: { messages: M[]; finalResults: number }, warnings: Issue[]): M[] {
  if (!v.finalResults) return v.messages;
  warnings.push(
    warn(
      'final_results_dropped',
      `the ${v.finalResults} result(s) of the last turn's tool calls were left out: the conversation must end on ` +
        'the assistant (its calls are kept)',
    ),
  );
  return v.messages.slice(0, v.messages.length - v.finalResults);
}

/** Reasoning as thought markers in front of a text (§1.3, §3.3 rule 10). */
export function withThought(text: string, reasoning: string | null, o: SftOptions): string {
  if (o.reasoning.mode !== 'think' || !reasoning) return text;
  return `${o.reasoning.open}${reasoning}${o.reasoning.close}${text}`;
}
