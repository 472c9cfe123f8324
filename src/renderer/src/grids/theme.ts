import { themeQuartz } from 'ag-grid-community';

/** Denser than the default: grids are read like a spreadsheet. */
export const gridTheme = themeQuartz.withParams({
  fontSize: 13,
  headerFontSize: 13,
  spacing: 5,
  accentColor: '#3b6ef5',
  headerBackgroundColor: '#f1f3f7',
});

export const smallGridTheme = themeQuartz.withParams({
  fontSize: 12,
  headerFontSize: 12,
  spacing: 4,
  accentColor: '#3b6ef5',
});
