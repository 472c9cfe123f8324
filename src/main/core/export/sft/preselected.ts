import type { SftOptions } from '../../../../shared/contract/entities/export';
import { AppError } from '../../lib/errors';
import type { Light } from './light-table';
import { preselect, readLights, type SftRecord } from './preselect';
import type { MetadataReason } from './verdicts';

/** One record as a pass of the selection yields it, in record order. */
export type Scanned = {
  /** Its position in the selection (0, 1, …): the same record has the same order on every pass. */
  order: number;
  /** idHash(recordId): the preview's sample. */
  hash: number;
  /** The metadata steps' verdict (§6.5 steps 1–3); null: the record goes on to its body. */
  reason: MetadataReason | null;
  light(): Light;
  /** The verdict's text (only asked for when it is reported). */
  detail(): string;
  /** On passes that read bodies: the record (its body loaded when asked); null on the metadata pass. */
  record: SftRecord | null;
};

/** The records with steps 1–3 decided, readable pass after pass in the same order. */
export interface Preselected {
  readonly size: number;
  scan(bodies: boolean): Iterable<Scanned>;
}

/**
 * A record source that decides steps 1–3 itself — the workspace, in SQL (export/workspace/sft-selection.ts),
 * keeping nothing per record. It stays iterable as records too: the JS path (a LightTable) runs on it unchanged.
 */
export type SelfSelecting = Iterable<SftRecord> & { preselect(o: SftOptions, pattern: RegExp): Preselected };

export const isSelfSelecting = (r: Iterable<SftRecord>): r is SelfSelecting =>
  typeof (r as Partial<SelfSelecting>).preselect === 'function';

/**
 * The JS path, for every other source (files, arrays): the metadata of every record in a LightTable (~73 bytes a
 * record), steps 1–3 over it (preselect.ts, duplicate-rule.ts). Passes that read bodies iterate `records` again and
 * check that each record is the one pass 1 saw (a source that changed in between is an error).
 */
export function tablePreselected(records: Iterable<SftRecord>, o: SftOptions, pattern: RegExp): Preselected {
  const { table, supersedes } = readLights(records, pattern);
  const { verdicts } = preselect(table, supersedes, o);
  const scanned = (i: number, record: SftRecord | null): Scanned => {
    const reason = verdicts.reason(i);
    return {
      order: i,
      hash: table.hashOf(i),
      reason,
      light: () => table.light(i),
      detail: () => verdicts.detail(i, reason!),
      record,
    };
  };
  return {
    size: table.size,
    *scan(bodies) {
      if (!bodies) {
        for (let i = 0; i < table.size; i++) yield scanned(i, null);
        return;
      }
      let i = 0;
      for (const record of records) {
        const id = i < table.size ? table.id(i) : null;
        if (record.recordId !== id)
          throw new AppError(
            'CONFLICT',
            `the records changed while exporting (record #${i} is not ${id ?? 'expected'})`,
          );
        yield scanned(i++, record);
      }
      if (i !== table.size)
        throw new AppError('CONFLICT', `the records changed while exporting (${i} of ${table.size})`);
    },
  };
}
