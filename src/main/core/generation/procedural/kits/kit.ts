import type { ServiceId } from '../../../../../shared/contract/entities/slot';
import type { Gen } from '../gen-context';
import type { KitInput, Segment } from '../segment';

/**
 * A service's part of the scenario library: builds that service's records around the world's case
 * and the segment a family asks for (act on the target, read it as evidence, or refuse a risky
 * request), with its plan steps, checks and distractor guards.
 */
export type Kit = {
  service: ServiceId;
  /** Its write carries free text, so it can mention facts found in other services (draft, message, note…). */
  messenger: boolean;
  build(input: KitInput): Segment;
};

/** "Ana Diaz's" / "王秀英的" — possessive of a name or noun phrase. */
export const poss = (g: Gen, who: string): string => g.L(who.endsWith('s') ? `${who}'` : `${who}'s`, `${who}的`);

/** A quoted title: "…" in English, 「…」 in Chinese. */
export const q = (g: Gen, s: string): string => g.L(`"${s}"`, `「${s}」`);

/** Mention text for a write: "(ref TK-4821, kb_207)". */
export const mentionText = (g: Gen, values: readonly string[]): string =>
  values.length ? g.L(` References: ${values.join(', ')}.`, `相关编号：${values.join('、')}。`) : '';

/** Field matchers requiring a text to contain each mentioned value (one check per value keeps partial credit). */
export const containsAll = (values: readonly string[]) => values.map((v) => ({ contains: v }));
