/** The group-advantage methods the RL export computes (formats.md §4). */
export type AdvantageMethod = 'grpo' | 'drgrpo' | 'gdpo' | 'gigpo';
export const ADVANTAGE_METHODS: readonly AdvantageMethod[] = ['grpo', 'drgrpo', 'gdpo', 'gigpo'];
