import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Output } from '../../../../shared/contract';
import { useLiveQuery } from '../../api/use-live-query';
import type { ListFilter } from '../../grids/grid-types';

// Only what these charts use (reference/stack.md: register only the charts and components used).
echarts.use([BarChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

type Charts = Output<'curation.charts'>;
const BUCKETS = ['KEEP', 'TRIVIAL', 'UNSOLVABLE', 'none'];
const COLORS: Record<string, string> = { KEEP: '#2f7d32', TRIVIAL: '#1565c0', UNSOLVABLE: '#b71c1c', none: '#9e9e9e' };
const BINS = Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`);

function Chart({ option, testId }: { option: echarts.EChartsCoreOption; testId: string }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!el.current) return;
    chart.current = echarts.init(el.current);
    const ro = new ResizeObserver(() => chart.current?.resize());
    ro.observe(el.current);
    return () => (ro.disconnect(), chart.current?.dispose());
  }, []);
  useEffect(() => void chart.current?.setOption(option, true), [option]);
  return <div ref={el} className="curation-chart" data-testid={testId} />;
}

/** Stacked counts per key (category, service, language), one series per assigned bucket. */
const byKey = (title: string, rows: Charts['category']): echarts.EChartsCoreOption => {
  const keys = [...new Set(rows.map((r) => r.key))];
  return {
    title: { text: title, textStyle: { fontSize: 12 } },
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 10, top: 30, bottom: 50 },
    xAxis: { type: 'category', data: keys, axisLabel: { rotate: 30, fontSize: 10 } },
    yAxis: { type: 'value' },
    series: BUCKETS.map((b) => ({
      name: b,
      type: 'bar',
      stack: 'b',
      color: COLORS[b],
      data: keys.map((k) => rows.find((r) => r.key === k && r.bucket === b)?.count ?? 0),
    })),
  };
};

/**
 * Histograms of mean completion per assigned bucket and bucket counts by category, service and
 * language, for the tasks the grid's filter shows; refreshed when curation changes.
 */
export function CurationCharts({ filter }: { filter: ListFilter<'curation.tasks'> }) {
  const data: Charts | null = useLiveQuery('curation.charts', filter, undefined, { delayMs: 300 }).data;
  if (!data) return <div className="curation-charts" />;
  const histogram: echarts.EChartsCoreOption = {
    title: {
      text: 'Mean completion per bucket (a mean of fractional values, not a success rate)',
      textStyle: { fontSize: 12 },
    },
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 40, right: 10, top: 30, bottom: 50 },
    xAxis: { type: 'category', data: BINS, axisLabel: { fontSize: 10 } },
    yAxis: { type: 'value' },
    series: data.histogram.map((h) => ({
      name: h.bucket,
      type: 'bar',
      stack: 'h',
      color: COLORS[h.bucket],
      data: h.bins,
    })),
  };
  return (
    <div className="curation-charts">
      <Chart option={histogram} testId="chart-histogram" />
      <Chart option={byKey('Buckets by category', data.category)} testId="chart-category" />
      <Chart option={byKey('Buckets by service', data.service)} testId="chart-service" />
      <Chart option={byKey('Buckets by language', data.language)} testId="chart-language" />
    </div>
  );
}
