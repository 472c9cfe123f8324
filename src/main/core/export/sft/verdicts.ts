import type { RejectionReason, SftOptions } from '../../../../shared/contract/entities/export';
import type { LightTable } from './light-table';

export type Verdict = { reason: RejectionReason; detail: string };

/** The reasons decided on metadata alone (§6.5 steps 1–3), by their code in a Verdicts table (0: none). */
const REASONS = [
  'superseded',
  'duplicate',
  'excluded_by_curation',
  'unsolvable',
  'unbucketed',
  'bucket_not_admitted',
  'invalid_rollout',
  'unknown_pool',
  'reward_missing',
  'below_threshold',
] as const satisfies readonly RejectionReason[];
export type MetadataReason = (typeof REASONS)[number];

/**
 * What the metadata steps decided for each record of a LightTable, as a byte per record and a number
 * (`aux`: the superseding collection's string, or the later duplicate's record) instead of a verdict
 * object with its text: the detail is written when a rejection is reported, once per record.
 */
export class Verdicts {
  private readonly code: Uint8Array;
  private readonly aux: Int32Array;

  constructor(
    private readonly t: LightTable,
    private readonly o: SftOptions,
  ) {
    this.code = new Uint8Array(t.size);
    this.aux = new Int32Array(t.size);
  }

  has(i: number): boolean {
    return this.code[i] !== 0;
  }

  set(i: number, reason: MetadataReason, aux = -1): void {
    this.code[i] = REASONS.indexOf(reason) + 1;
    this.aux[i] = aux;
  }

  /** The verdict of record i with its detail, as the selection reports it; null when none. */
  get(i: number): Verdict | null {
    const c = this.code[i]!;
    if (c === 0) return null;
    const reason = REASONS[c - 1]!;
    return { reason, detail: this.detail(i, reason) };
  }

  private detail(i: number, reason: MetadataReason): string {
    const t = this.t;
    const task = t.string(t.taskKey(i));
    const pool = t.string(t.poolKey(i));
    const rule = Object.hasOwn(this.o.pools, pool) ? this.o.pools[pool] : undefined;
    switch (reason) {
      case 'superseded':
        return `task ${task} was re-executed in collection ${t.string(this.aux[i]!)}`;
      case 'duplicate':
        return (
          `record ${t.id(this.aux[i]!)} (stored later) has the same task and trial ` +
          'in the same run, agent and collection'
        );
      case 'excluded_by_curation':
        return 'excluded by a curation override';
      case 'unsolvable':
      case 'unbucketed':
      case 'bucket_not_admitted':
        return `task ${task} is ${t.bucketOf(i) ?? 'UNBUCKETED'}`;
      case 'invalid_rollout':
        return 'an invalid rollout (infrastructure error or grader crash)';
      case 'unknown_pool':
        return `pool ${pool} has no rule (known: ${Object.keys(this.o.pools).join(', ')})`;
      case 'reward_missing':
        return `pool ${pool} needs a reward ≥ ${rule?.minReward}`;
      case 'below_threshold':
        return `reward ${t.rewardOf(i)} < ${rule?.minReward} (pool ${pool})`;
    }
  }
}
