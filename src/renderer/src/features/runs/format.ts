/** Figures as the CLI's report prints them (four decimals, "–" for none), so the page and `coworkenv report` agree. */
export const f4 = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(4));
export const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)} %`;
