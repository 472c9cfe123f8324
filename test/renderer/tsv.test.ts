import { describe, expect, it } from 'vitest';
import { parseTsv, toTsv } from '../../src/renderer/src/lib/tsv';

describe('TSV as spreadsheets write it', () => {
  it('splits cells on tabs and rows on LF or CRLF', () => {
    expect(parseTsv('a\tb\r\nc\td\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
  it('keeps empty cells, including trailing ones', () => {
    expect(parseTsv('a\t\tc\t\nx')).toEqual([['a', '', 'c', ''], ['x']]);
  });
  it('unquotes cells holding tabs, newlines and doubled quotes', () => {
    expect(parseTsv('"two\tcells"\t"line1\nline2"\t"say ""hi"""')).toEqual([
      ['two\tcells', 'line1\nline2', 'say "hi"'],
    ]);
  });
  it('leaves a quote inside an unquoted cell alone', () => {
    expect(parseTsv('5" screen\tok')).toEqual([['5" screen', 'ok']]);
  });
  it('round-trips what it writes', () => {
    const rows = [
      ['id', 'notes'],
      ['1', 'tab\there'],
      ['2', 'new\nline "q"'],
    ];
    expect(parseTsv(toTsv(rows))).toEqual(rows);
  });
});
