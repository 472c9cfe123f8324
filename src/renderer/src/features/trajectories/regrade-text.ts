import type { JobResult } from '../../../../shared/contract/job-result';

/** Above this many rows a re-grade asks to be confirmed: it may ask the judge (and its bill) that many times. */
export const CONFIRM_ABOVE = 1000;

export const needsConfirmation = (n: number): boolean => n > CONFIRM_ABOVE;

/** The finished job in one paragraph: what was graded, what the judge was asked, what stays pending. */
export function regradeOutcome(r: JobResult<'grading.regradeJob'>): string {
  const skipped = r.skipped ? ` (${r.skipped} skipped: not graded)` : '';
  const judge = r.judge.endpoint
    ? `Judge ${r.judge.endpoint}: asked ${r.judge.asked}, cached ${r.judge.cached}, failed ${r.judge.failed}.`
    : 'No judge asked.';
  return (
    `Re-graded ${r.regraded}${skipped}, ${r.changed} with another score. ${judge} ` +
    `${r.pending} still judge pending; ${r.disagreements} now disagree with their score of record.`
  );
}
