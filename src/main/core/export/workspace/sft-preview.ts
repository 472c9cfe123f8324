import type { ParsedInput } from '../../../../shared/contract';
import type { ReadDb } from '../../db/sqlite';
import { previewSft } from '../sft';
import { curationState } from './curation-state';
import { admittedOf, RedactionTally, workspaceSftRecords } from './sft-records';

/** `export.sftPreview`'s answer, computed on whichever connection runs it (a query worker's, or the core's). */
export function sftPreviewOf(db: ReadDb, input: ParsedInput<'export.sftPreview'>) {
  const tally = new RedactionTally();
  const preview = previewSft({
    records: workspaceSftRecords(db, input.selection, tally),
    dialect: input.dialect,
    options: { ...input.options, admittedBuckets: admittedOf(input.selection) },
    examples: input.examples,
    ...(input.maxBodies === null ? {} : { sampleBodies: input.maxBodies }),
  });
  return { preview, curation: curationState(db), redaction: tally.summary() };
}
