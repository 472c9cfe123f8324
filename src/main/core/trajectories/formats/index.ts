import type { SourceFormat } from '../../../../shared/contract/entities/trajectory';
import type { FileFormat } from '../import/sniff';
import { readClawEval } from './claw-eval';
import type { FormatContext, Normalized } from './normalized';
import { readOpenAi } from './openai';
import { RecordError } from './record-error';
import { readShareGpt } from './sharegpt';
import { readTauBench } from './tau-bench';
import { readTau2 } from './tau2';

export { RecordError } from './record-error';
export { TraceRecordError } from './claw-eval';
export type { FormatContext, Normalized, RowHints } from './normalized';

/** JSON.parse's complaint, with the line (1-based, within the record) its position falls on. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly lineInRecord: number,
  ) {
    super(message);
  }
}

export function parseRecordJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    let line = 1;
    if (pos) for (let i = Number(pos[1]) - 1; i >= 0; i--) if (text.charCodeAt(i) === 10) line++;
    const cut = /Unexpected end of JSON input|Unterminated string/.test(msg) ? ' — the record looks truncated' : '';
    throw new JsonSyntaxError(`not valid JSON: ${msg}${cut}`, line);
  }
}

/**
 * One record (its text) of a file format → the canonical Trajectory and the row's hints. Throws
 * RecordError (a field and why), JsonSyntaxError or TraceRecordError (bad trace lines).
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
