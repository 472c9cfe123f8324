import type { SourceFormat } from '../../../../shared/contract/entities/trajectory';
import type { FileFormat } from '../import/sniff';
import { readClawEval } from './claw-eval';
import type { FormatContext, Normalized } from './normalized';
import { readOpenAi } from './openai';
import { RecordError } from './record-error';
import { parseRecordJson } from './record-json';
import { readShareGpt } from './sharegpt';
import { readTauBench } from './tau-bench';
import { readTau2 } from './tau2';

export { RecordError } from './record-error';
export { JsonSyntaxError, parseRecordJson } from './record-json';
export { TraceRecordError } from './claw-eval';
export type { FormatContext, Normalized, RowHints } from './normalized';

/**
 * One record (its text) of a file format → the canonical Trajectory and the row's hints. Throws
 * RecordError (a field and why), JsonSyntaxError (not JSON, or nested past the limit) or TraceRecordError
 * (bad trace lines).
 */
export function readRecord(format: FileFormat | SourceFormat, text: string, ctx: FormatContext): Normalized {
  switch (format) {
    case 'claw-eval':
    case 'claw-eval-trace':
      return readClawEval(text, ctx);
    case 'tau-bench':
    case 'tau-bench-v1':
      return readTauBench(parseRecordJson(text), ctx);
    case 'tau2':
    case 'tau2-results':
      return readTau2(parseRecordJson(text), ctx);
    case 'openai-jsonl':
    case 'openai-ft-jsonl':
    case 'messages-jsonl':
      return readOpenAi(parseRecordJson(text), ctx);
    case 'sharegpt':
      return readShareGpt(parseRecordJson(text), ctx);
    case 'studio':
      throw new RecordError('', 'trajectories made in the app are stored as Trajectory JSON, not read from a source');
  }
}
