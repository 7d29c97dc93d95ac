import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { CHART_PALETTE } from '../../core/statPeriods';
import { passRate } from '../../core/statRates';
import type { StatAnswer } from './api';

// Only the parts drawn here: this chunk loads with a statistics page, never with the shell.
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

export interface StatChartProps {
  answer: StatAnswer;
  seriesLabel: (s: string) => string;
  passRateLabel: string;
}

/**
 * Bars per series stacked by bucket in the spec §9 six-colour palette; the pass rate (scan quality) as a line on
 * a second axis with its qc13 target marked.
 */
export default function StatChart({ answer, seriesLabel, passRateLabel }: StatChartProps) {
  const option = useMemo(() => {
    const buckets = answer.rows.map((r) => r.bucket);
    const withRate = answer.kind === 'scan_access';
    const money = answer.kind === 'income';
    const stacked = !(['workload', 'timeout', 'rejected'] as string[]).includes(answer.kind);
    return {
      color: [...CHART_PALETTE],
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 48, right: withRate ? 56 : 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: buckets },
      yAxis: [{ type: 'value', ...(money ? {} : { minInterval: 1 }) }, ...(withRate ? [{ type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } }] : [])],
      series: [
        // Income: the kinds stacked, their total a line over them (stacking it would count it twice).
        ...answer.series.map((s) => (money && s === 'income_total'
          ? { name: seriesLabel(s), type: 'line', data: answer.rows.map((r) => Number(r[s] ?? 0)) }
          : { name: seriesLabel(s), type: 'bar', stack: stacked ? 'total' : undefined, data: answer.rows.map((r) => Number(r[s] ?? 0)) })),
        ...(withRate ? [{
          name: passRateLabel, type: 'line', yAxisIndex: 1, connectNulls: true, data: answer.rows.map((r) => passRate(r)),
          markLine: answer.target === undefined ? undefined : { symbol: 'none', data: [{ yAxis: answer.target }], label: { formatter: `${answer.target}%` } },
        }] : []),
      ],
    };
  }, [answer, seriesLabel, passRateLabel]);
  return <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height: 320, width: '100%' }} data-testid="stat-chart" />;
}
