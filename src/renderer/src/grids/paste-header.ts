/**
 * Does the first row of a pasted block name columns? It does when most of its cells are known
 * column names (a sheet with one extra column is still a header): the known ones are mapped, the
 * unknown ones named back to the user and skipped. Row numbers in messages are 1-based, as
 * spreadsheets number them.
 */
export type HeaderMatch<F extends string> = {
  fields: (F | undefined)[];
  unknown: { column: number; name: string }[];
};

export function matchHeader<F extends string>(
  row: readonly string[],
  fieldOf: (header: string) => F | undefined,
): HeaderMatch<F> | null {
  const fields = row.map((h) => fieldOf(h));
  const known = fields.filter((f) => f !== undefined).length;
  // One known name could be data that happens to read like a header ("easy"); ask for two, and a majority.
  if (known < 2 || known * 2 <= row.length) return null;
  const unknown = row.flatMap((name, i) => (fields[i] === undefined && name.trim() ? [{ column: i + 1, name }] : []));
  return { fields, unknown };
}

/** "row 3: …" for the error of the n-th data row (0-based index) under an optional header row. */
export const rowLabel = (index: number, hasHeader: boolean) => `row ${index + 1 + (hasHeader ? 1 : 0)}`;
