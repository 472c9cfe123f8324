import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what a bar histogram draws: this file is its own lazy chunk, as the coverage heat maps are.
echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

export type Bin = { from: number; to: number; count: number };

/** A score histogram over [0, 1]; `data-counts` holds the counts drawn (what a test compares with the report). */
export function ScoreHistogram({ title, bins, testId }: { title: string; bins: Bin[]; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!box.current) return;
    const c = echarts.init(box.current, undefined, { renderer: 'canvas' });
    chart.current = c;
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(box.current);
    return () => (resize.disconnect(), c.dispose(), void (chart.current = null));
  }, []);
  useEffect(() => {
    chart.current?.setOption(
      {
        animation: false,
        tooltip: { trigger: 'axis' },
        grid: { left: 40, right: 12, top: 12, bottom: 40 },
        xAxis: {
          type: 'category',
          data: bins.map((b) => `${b.from.toFixed(1)}–${b.to.toFixed(1)}`),
          axisLabel: { rotate: 30, interval: 0, fontSize: 10 },
        },
        yAxis: { type: 'value', minInterval: 1 },
        series: [{ type: 'bar', data: bins.map((b) => b.count), itemStyle: { color: '#4a78b8' } }],
      },
      { notMerge: true },
    );
  }, [bins]);
  return (
    <figure className="histogram">
      <figcaption>{title}</figcaption>
      <div
        ref={box}
        className="histogram-canvas"
        data-testid={testId}
        data-counts={bins.map((b) => b.count).join(',')}
      />
    </figure>
  );
}

export default ScoreHistogram;
