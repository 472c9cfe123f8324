import {
  type LintFinding,
  type RejectionReason,
  STEP_OF_REASON,
  type SftDialect,
  type SftReport,
  SftStep,
} from '../../../../shared/contract/entities/export';

const EXAMPLES = 3;

/**
 * The running accounting of one selection: every record ends as exported or with exactly one
 * reason, so the reasons always sum to input − exported (§6.5: the paper's numbers add up this way).
 */
export class ReportBuilder {
  input = 0;
  private exported = 0;
  /** Records actually kept (unweighted): the divisor of the retained averages. */
  private keptRecords = 0;
  private reasons = new Map<RejectionReason, { count: number; examples: string[]; detail: string | null }>();
  private converterIn = 0;
  private converterKept = 0;
  private rewardSum = 0;
  private rewardN = 0;
  private messageSum = 0;
  private callSum = 0;
  private withoutReward = 0;
  /** The pools the records used (the manifest says which of them required a reward). */
  pools = new Set<string>();
  private lintErrors = 0;
  private lintWarnings = 0;
  private lintCodes = new Map<string, number>();
  unsolvableTasks: string[] = [];
  /**
   * What one record whose body was read stands for: 1 in an export; in a sampled preview (sft-engine's
   * `sample`) the records past the metadata steps over those examined, so every count after the metadata
   * steps is an estimate of the whole selection (rounded in build()).
   */
  bodyWeight = 1;

  reject(id: string, reason: RejectionReason, detail: string): void {
    let r = this.reasons.get(reason);
    if (!r) this.reasons.set(reason, (r = { count: 0, examples: [], detail }));
    r.count += METADATA_STEPS.has(STEP_OF_REASON[reason]) ? 1 : this.bodyWeight;
    if (r.examples.length < EXAMPLES) r.examples.push(id);
  }

  /** A reason's count estimated as a whole (a sampled preview's TRIVIAL prefix rule); no example ids. */
  estimate(reason: RejectionReason, count: number, detail: string): void {
    this.reasons.set(reason, { count, examples: [], detail });
  }

  converted(kept: boolean): void {
    this.converterIn += this.bodyWeight;
    if (kept) this.converterKept += this.bodyWeight;
  }

  /** An exported record, for the retained averages (messages and calls as counted in the agent view). */
  keep(reward: number | null, counts: { messages: number; toolCalls: number }): void {
    this.exported += this.bodyWeight;
    this.keptRecords++;
    if (reward !== null) {
      this.rewardSum += reward;
      this.rewardN++;
    } else this.withoutReward += this.bodyWeight;
    this.messageSum += counts.messages;
    this.callSum += counts.toolCalls;
  }

  lint(f: LintFinding): void {
    if (f.severity === 'error') this.lintErrors += this.bodyWeight;
    else this.lintWarnings += this.bodyWeight;
    this.lintCodes.set(f.code, (this.lintCodes.get(f.code) ?? 0) + this.bodyWeight);
  }

  count(reason: RejectionReason): number {
    return this.reasons.get(reason)?.count ?? 0;
  }

  build(dialect: SftDialect): SftReport {
    if (this.bodyWeight !== 1) this.roundEstimates();
    const rejected = [...this.reasons.values()].reduce((a, r) => a + r.count, 0);
    let left = this.input;
    const steps = SftStep.options.map((step) => {
      let n = 0;
      for (const [reason, r] of this.reasons) if (STEP_OF_REASON[reason] === step) n += r.count;
      const s = { step, in: left, out: left - n };
      left -= n;
      return s;
    });
    const rejections: SftReport['rejections'] = {};
    for (const [reason, r] of [...this.reasons].sort(
      (a, b) => Object.keys(STEP_OF_REASON).indexOf(a[0]) - Object.keys(STEP_OF_REASON).indexOf(b[0]),
    ))
      rejections[reason] = { step: STEP_OF_REASON[reason], count: r.count, examples: r.examples, detail: r.detail };
    // Estimates are rounded per reason; the exported count is what they leave, so the accounting still adds up.
    const n = this.bodyWeight === 1 ? this.exported : Math.max(0, this.input - rejected);
    return {
      dialect,
      input: this.input,
      exported: n,
      rejected,
      steps,
      rejections,
      converter: { in: this.converterIn, kept: this.converterKept },
      retained: {
        count: n,
        avgReward: this.rewardN ? this.rewardSum / this.rewardN : null,
        avgMessages: this.keptRecords ? this.messageSum / this.keptRecords : null,
        avgToolCalls: this.keptRecords ? this.callSum / this.keptRecords : null,
        withoutReward: Math.round(this.withoutReward),
      },
      unsolvableTasks: this.unsolvableTasks,
      lint: { errors: this.lintErrors, warnings: this.lintWarnings, byCode: Object.fromEntries(this.lintCodes) },
    };
  }

  private roundEstimates(): void {
    for (const r of this.reasons.values()) r.count = Math.round(r.count);
    this.converterIn = Math.round(this.converterIn);
    this.converterKept = Math.round(this.converterKept);
    this.lintErrors = Math.round(this.lintErrors);
    this.lintWarnings = Math.round(this.lintWarnings);
    for (const [code, n] of this.lintCodes) this.lintCodes.set(code, Math.round(n));
  }
}

/** Steps decided from the metadata alone: exact in a sampled preview too. */
const METADATA_STEPS = new Set<SftStep>(['supersession_dedup', 'buckets', 'threshold']);
