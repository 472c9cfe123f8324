import type { RejectionReason, SftBucket, SftOptions } from '../../../../shared/contract/entities/export';
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
  'judge_pending',
] as const satisfies readonly RejectionReason[];
export type MetadataReason = (typeof REASONS)[number];

/** What a metadata verdict's detail names: the record's fields and, for steps 1's rules, the other party. */
export type DetailFields = {
  task: string;
  pool: string;
  bucket: SftBucket | null;
  reward: number | null;
  /** superseded: the collection that re-executed the task; duplicate: the later record's id. */
  other: string;
};

/** The text of a metadata verdict, written when it is reported (one place for every record source). */
export function metadataDetail(reason: MetadataReason, f: DetailFields, o: SftOptions): string {
  const rule = Object.hasOwn(o.pools, f.pool) ? o.pools[f.pool] : undefined;
  switch (reason) {
    case 'superseded':
      return `task ${f.task} was re-executed in collection ${f.other}`;
    case 'duplicate':
      return `record ${f.other} (stored later) has the same task and trial in the same run, agent and collection`;
    case 'excluded_by_curation':
      return 'excluded by a curation override';
    case 'unsolvable':
    case 'unbucketed':
    case 'bucket_not_admitted':
      return `task ${f.task} is ${f.bucket ?? 'UNBUCKETED'}`;
    case 'invalid_rollout':
      return 'an invalid rollout (infrastructure error or grader crash)';
    case 'judge_pending':
      return 'its score awaits an LLM judge (configure one, then grade --regrade; or switch the basis)';
    case 'unknown_pool':
      return `pool ${f.pool} has no rule (known: ${Object.keys(o.pools).join(', ')})`;
    case 'reward_missing':
      return `pool ${f.pool} needs a reward ≥ ${rule?.minReward}`;
    case 'below_threshold':
      return `reward ${f.reward} < ${rule?.minReward} (pool ${f.pool})`;
  }
}

/** A record's fields that steps 2 and 3 read (one record at a time: no other record matters to them). */
export type RowFields = {
  override: 'include' | 'exclude' | null;
  bucket: SftBucket | null;
  valid: boolean;
  pool: string;
  reward: number | null;
  /** The score awaits a judge (score-basis.ts `pending`). */
  pending: boolean;
};

/**
 * Steps 2 and 3 of §6.5 for one record that steps 1's rules (supersession, duplicates) let through: curation's
 * override and the admitted buckets, then the pool's rule. The reason it is rejected, or null.
 */
export function rowReason(r: RowFields, admitted: ReadonlySet<string>, o: SftOptions): MetadataReason | null {
  if (r.override === 'exclude') return 'excluded_by_curation';
  const bucket = r.bucket ?? 'UNBUCKETED';
  // An include override admits the record whatever its task's bucket; the pool threshold still applies.
  if (r.override !== 'include' && !admitted.has(bucket))
    return bucket === 'UNSOLVABLE' ? 'unsolvable' : bucket === 'UNBUCKETED' ? 'unbucketed' : 'bucket_not_admitted';
  if (!r.valid) return 'invalid_rollout';
  const rule = Object.hasOwn(o.pools, r.pool) ? o.pools[r.pool] : undefined;
  if (!rule) return 'unknown_pool';
  // Unknown is neither a pass nor a failure: never trained on, and counted apart from missing rewards.
  if (r.pending && r.reward === null) return 'judge_pending';
  if (rule.minReward === null) return null;
  if (r.reward === null) return 'reward_missing';
  return r.reward >= rule.minReward ? null : 'below_threshold';
}

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

  reason(i: number): MetadataReason | null {
    const c = this.code[i]!;
    return c === 0 ? null : REASONS[c - 1]!;
  }

  /** The verdict of record i with its detail, as the selection reports it; null when none. */
  get(i: number): Verdict | null {
    const reason = this.reason(i);
    return reason === null ? null : { reason, detail: this.detail(i, reason) };
  }

  detail(i: number, reason: MetadataReason): string {
    const t = this.t;
    const aux = this.aux[i]!;
    const other = aux < 0 ? '' : reason === 'superseded' ? t.string(aux) : reason === 'duplicate' ? t.id(aux) : '';
    const fields = {
      task: t.string(t.taskKey(i)),
      pool: t.string(t.poolKey(i)),
      bucket: t.bucketOf(i),
      reward: t.rewardOf(i),
      other,
    };
    return metadataDetail(reason, fields, this.o);
  }
}
