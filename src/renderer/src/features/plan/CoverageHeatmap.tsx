import { HeatmapChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import type { CoverageCell } from '../../../../shared/contract/generation.contract';
import { call, onEvent } from '../../api/client';

// Only what the heat maps draw (tree-shaken: the whole echarts bundle is ~1 MB). The canvas
// renderer needs no eval and no inline scripts, so the app's CSP stays as it is.
echarts.use([HeatmapChart, GridComponent, TooltipComponent, VisualMapComponent, CanvasRenderer]);

/** The slice of echarts' model read for the drawn labels (not in its public typings). */
type AxisModelHost = {
  getComponent(type: string, i: number): { axis?: { getViewLabels(): { formattedLabel: string }[] } } | undefined;
};

export type CellPick = { map: 'services' | 'difficulty'; row: string; col: string };

/** Room per row: every row gets its label (echarts hides labels that would overlap, issue 21 item 10). */
const ROW_PX = 20;
const GRID = { left: 90, right: 16, top: 8, bottom: 56 } as const;

const pct = (c: CoverageCell) => (c.planned ? Math.min(100, Math.round((100 * c.valid) / c.planned)) : 100);
const axis = (values: string[]) => [...new Set(values)].sort();

/** One heat map: rows × columns, each cell coloured by valid / planned and labelled "valid/planned". */
function Heatmap({
  title,
  cells,
  rowOrder,
  onPick,
  testId,
}: {
  title: string;
  cells: CoverageCell[];
  rowOrder?: readonly string[];
  onPick(row: string, col: string): void;
  testId: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const [height, setHeight] = useState(260);

  useEffect(() => {
    if (!box.current) return;
    const c = echarts.init(box.current, undefined, { renderer: 'canvas' });
    chart.current = c;
    c.on('click', (p) => {
      const [x, y] = (p.data as { value: [number, number] }).value;
      const opt = c.getOption() as { xAxis: { data: string[] }[]; yAxis: { data: string[] }[] };
      pick.current(opt.yAxis[0]!.data[y]!, opt.xAxis[0]!.data[x]!);
    });
    // For tests and for anyone asking why a label is missing: the row labels echarts actually laid out.
    c.on('finished', () => {
      const axis = (c as unknown as { getModel(): AxisModelHost }).getModel().getComponent('yAxis', 0)?.axis;
      const opt = c.getOption() as { yAxis: { axisLabel?: { interval?: unknown } }[] };
      box.current?.setAttribute('data-row-labels', JSON.stringify(axis?.getViewLabels().map((l) => l.formattedLabel)));
      box.current?.setAttribute('data-label-interval', String(opt.yAxis[0]?.axisLabel?.interval));
    });
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(box.current);
    return () => (resize.disconnect(), c.dispose(), void (chart.current = null));
  }, []);

  useEffect(() => {
    const rows = rowOrder ? rowOrder.filter((r) => cells.some((c) => c.row === r)) : axis(cells.map((c) => c.row));
    const cols = axis(cells.map((c) => c.col));
    chart.current?.setOption(
      {
        animation: false,
        tooltip: {
          formatter: (p: { data: { cell: CoverageCell } }) => {
            const c = p.data.cell;
            return `${c.row} × ${c.col}<br/>${c.valid} valid of ${c.planned} planned (${c.slots} slots)`;
          },
        },
        grid: GRID,
        xAxis: { type: 'category', data: cols, axisLabel: { rotate: 30, interval: 0 } },
        yAxis: { type: 'category', data: rows, axisLabel: { interval: 0 } },
        visualMap: {
          min: 0,
          max: 100,
          dimension: 2,
          show: false,
          inRange: { color: ['#f3d6d6', '#f7ecc4', '#bfe3c4', '#3f9a56'] },
        },
        series: [
          {
            type: 'heatmap',
            data: cells.map((c) => ({ value: [cols.indexOf(c.col), rows.indexOf(c.row), pct(c)], cell: c })),
            label: {
              show: true,
              fontSize: 10,
              formatter: (p: { data: { cell: CoverageCell } }) => `${p.data.cell.valid}/${p.data.cell.planned}`,
            },
          },
        ],
      },
      { notMerge: true },
    );
    const valid = cells.reduce((n, c) => n + c.valid, 0);
    box.current?.setAttribute('data-valid', String(valid));
    setHeight(GRID.top + GRID.bottom + Math.max(rows.length, 3) * ROW_PX);
  }, [cells, rowOrder]);

  return (
    <figure className="heatmap">
      <figcaption>{title}</figcaption>
      <div ref={box} className="heatmap-canvas" style={{ height }} data-testid={testId} data-valid="0" />
    </figure>
  );
}

const DIFFICULTY_ORDER = ['easy', 'medium', 'hard'] as const;

/**
 * Plan vs actual (generation.coverage): services × category and difficulty × language, each cell
 * valid tasks over planned tasks. Refreshed (debounced) as tasks and slots change, so it fills
 * while a generation job runs. A click on a cell hands its keys to the page, which filters the grid.
 */
export function CoverageHeatmap({ onPick }: { onPick(p: CellPick): void }) {
  const [data, setData] = useState<Output<'generation.coverage'> | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      void call('generation.coverage', {}).then(
        (d) => alive && setData(d),
        () => {},
      );
    load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onEvent('table.changed', ({ table }) => {
      if (table !== 'tasks' && table !== 'coverage_slots') return;
      clearTimeout(timer);
      timer = setTimeout(load, 300);
    });
    return () => ((alive = false), clearTimeout(timer), off());
  }, []);
  if (!data) return null;
  return (
    <div className="heatmaps" data-testid="coverage-heatmaps">
      <Heatmap
        title="Services × category — valid / planned"
        cells={data.servicesByCategory}
        onPick={(row, col) => onPick({ map: 'services', row, col })}
        testId="heatmap-services"
      />
      <Heatmap
        title="Difficulty × language"
        cells={data.difficultyByLanguage}
        rowOrder={DIFFICULTY_ORDER}
        onPick={(row, col) => onPick({ map: 'difficulty', row, col })}
        testId="heatmap-difficulty"
      />
    </div>
  );
}
