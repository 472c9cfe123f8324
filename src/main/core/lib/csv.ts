/**
 * RFC 4180 CSV, as spreadsheets write it: comma-separated, fields quoted with "…" when they hold a
 * comma, a quote (doubled) or a line break; CRLF or LF; an optional UTF-8 byte-order mark.
 */

/** One record and the line of the file it starts on (1-based; a quoted line break makes a record span lines). */
export type CsvRecord = { line: number; fields: string[] };
export type CsvProblem = { line: number; message: string };

/** Every record of the text, or the first syntax problem (an unclosed quote, text after a closing quote). */
export function parseCsv(text: string): { records: CsvRecord[] } | { problem: CsvProblem } {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  while (i < s.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (s[i] === '"') {
        const open = line;
        i++;
        for (;;) {
          if (i >= s.length) return { problem: { line: open, message: 'a quoted field is never closed' } };
          const c = s[i]!;
          if (c === '"') {
            if (s[i + 1] === '"') (field += '"'), (i += 2);
            else {
              i++;
              break;
            }
          } else {
            if (c === '\n') line++;
            field += c;
            i++;
          }
        }
        if (i < s.length && s[i] !== ',' && s[i] !== '\n' && s[i] !== '\r')
          return { problem: { line, message: 'text after a closing quote (quotes inside a field are doubled: "")' } };
      } else {
        const from = i;
        while (i < s.length && s[i] !== ',' && s[i] !== '\n' && s[i] !== '\r') i++;
        field = s.slice(from, i);
      }
      fields.push(field);
      if (s[i] === ',') {
        i++;
        continue;
      }
      if (s[i] === '\r') i++;
      if (s[i] === '\n') i++;
      line++;
      break;
    }
    // A blank line is no record (spreadsheets leave one at the end).
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: start, fields });
  }
  return { records };
}

/** A field as CSV: quoted when it must be. */
export const csvField = (v: string | number): string => {
  const t = String(v);
  return /[",\r\n]/.test(t) || /^\s|\s$/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};

export const csvLine = (fields: readonly (string | number)[]): string => `${fields.map(csvField).join(',')}\r\n`;
