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
  private reasons = new Map<RejectionReason, { count: number; examples: string[]; detail: string | null }>();
  private converterIn = 0;
  private converterKept = 0;
  private rewardSum = 0;
  private rewardN = 0;
  private messageSum = 0;
  private callSum = 0;
  private lintErrors = 0;
  private lintWarnings = 0;
  private lintCodes = new Map<string, number>();
  unsolvableTasks: string[] = [];

  reject(id: string, reason: RejectionReason, detail: string): void {
    let r = this.reasons.get(reason);
    if (!r) this.reasons.set(reason, (r = { count: 0, examples: [], detail }));
    r.count++;
    if (r.examples.length < EXAMPLES) r.examples.push(id);
  }

  converted(kept: boolean): void {
    this.converterIn++;
    if (kept) this.converterKept++;
  }

  /** An exported record, for the retained averages (messages and calls as counted in the agent view). */
  keep(reward: number | null, counts: { messages: number; toolCalls: number }): void {
    this.exported++;
    if (reward !== null) {
      this.rewardSum += reward;
      this.rewardN++;
    }
    this.messageSum += counts.messages;
    this.callSum += counts.toolCalls;
  }

  lint(f: LintFinding): void {
    if (f.severity === 'error') this.lintErrors++;
    else this.lintWarnings++;
    this.lintCodes.set(f.code, (this.lintCodes.get(f.code) ?? 0) + 1);
  }

  count(reason: RejectionReason): number {
    return this.reasons.get(reason)?.count ?? 0;
  }

  build(dialect: SftDialect): SftReport {
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
    const n = this.exported;
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
        avgMessages: n ? this.messageSum / n : null,
        avgToolCalls: n ? this.callSum / n : null,
      },
      unsolvableTasks: this.unsolvableTasks,
      lint: { errors: this.lintErrors, warnings: this.lintWarnings, byCode: Object.fromEntries(this.lintCodes) },
    };
  }
}
