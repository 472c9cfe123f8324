import {
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  CustomEditorModule,
  CustomFilterModule,
  DateFilterModule,
  GridStateModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  NumberFilterModule,
  RenderApiModule,
  RowApiModule,
  RowSelectionModule,
  RowStyleModule,
  ScrollApiModule,
  TextEditorModule,
  TextFilterModule,
  TooltipModule,
} from 'ag-grid-community';

/**
 * The ag-grid modules our grids use, registered once by every page that shows a grid. Only these
 * reach the bundle (AllCommunityModule was 1.5 MB). Hazard: a feature whose module is missing
 * vanishes silently with console error #200 — the e2e tests fail on console errors, so they catch it.
 */
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  ClientSideRowModelModule,
  TextFilterModule,
  NumberFilterModule,
  DateFilterModule,
  CustomFilterModule,
  TextEditorModule,
  CustomEditorModule,
  RowSelectionModule,
  TooltipModule,
  CellStyleModule,
  RowStyleModule,
  ColumnApiModule,
  RowApiModule,
  RenderApiModule,
  ScrollApiModule,
  GridStateModule,
]);
