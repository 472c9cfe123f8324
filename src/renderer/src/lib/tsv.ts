/**
 * TSV as spreadsheets write it (Excel, Google Sheets, LibreOffice): tab-separated, CRLF or LF rows,
 * cells containing tabs, newlines or quotes wrapped in double quotes with quotes doubled.
 */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  const src = text.replace(/\r\n?/g, '\n');
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') (cell += '"'), (i += 2);
      else if (ch === '"') (quoted = false), i++;
      else (cell += ch), i++;
      continue;
    }
    if (ch === '"' && cell === '') (quoted = true), i++;
    else if (ch === '\t') row.push(cell), (cell = ''), i++;
    else if (ch === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else (cell += ch), i++;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

const quote = (s: string) => (/[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function toTsv(rows: (string | number)[][]): string {
  return rows.map((r) => r.map((c) => quote(String(c))).join('\t')).join('\n');
}
