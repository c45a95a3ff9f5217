/**
 * The report's charts as SVG, drawn by Vega-Lite (compiled to Vega and rendered headless, no browser or
 * canvas) from the run's figures. Each function returns an SVG document, or undefined when the run has no
 * figures for that chart.
 */
import type { LatencyFigure, RequestFigure, ScaleOutPoint } from './figures';

type Spec = Record<string, unknown>;

const WIDTH = 520;

async function render(spec: Spec): Promise<string> {
  const vega = await import('vega');
  const vegaLite = await import('vega-lite');
  const compiled = vegaLite.compile({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', ...spec } as Parameters<typeof vegaLite.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

const label = (f: { figure: string; target: string }): string => `${f.figure} [${f.target}]`;

/** 2xx requests per second by figure and runtime. */
export function throughputChart(figures: readonly RequestFigure[]): Promise<string> | undefined {
  if (figures.length === 0) return undefined;
  return render({
    title: 'Throughput (2xx requests per second, 32 connections)',
    width: WIDTH,
    data: { values: figures.map((f) => ({ figure: f.figure, target: f.target, value: f.requestsPerSec })) },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'figure', type: 'nominal', title: null },
      yOffset: { field: 'target' },
      x: { field: 'value', type: 'quantitative', title: 'requests per second' },
      color: { field: 'target', type: 'nominal', title: 'runtime' },
    },
  });
}

/** CPU ms per request of every process, split into Switchyard's own and its servers (Kafka, MongoDB, Redis). */
export function cpuChart(figures: readonly RequestFigure[]): Promise<string> | undefined {
  const measured = figures.filter((f) => f.cpuAllMs !== undefined);
  if (measured.length === 0) return undefined;
  const values = measured.flatMap((f) => {
    const all = f.cpuAllMs ?? 0;
    const own = Math.min(all, f.cpuSwitchyardMs ?? all);
    return [
      { figure: label(f), part: "Switchyard's processes", value: own },
      { figure: label(f), part: 'Kafka, MongoDB, Redis', value: Math.max(0, all - own) },
    ];
  });
  return render({
    title: 'CPU per request (ms, every process of the target)',
    width: WIDTH,
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'figure', type: 'nominal', title: null },
      x: { field: 'value', type: 'quantitative', title: 'CPU ms per 2xx request', stack: 'zero' },
      color: { field: 'part', type: 'nominal', title: null },
    },
  });
}

/** p50 and p99 latency by figure and runtime (requests under load; the outgoing callback one at a time). */
export function latencyChart(figures: readonly LatencyFigure[]): Promise<string> | undefined {
  if (figures.length === 0) return undefined;
  const values = figures.flatMap((f) => [
    { figure: label(f), percentile: 'p50', value: f.p50Ms },
    { figure: label(f), percentile: 'p99', value: f.p99Ms },
  ]);
  return render({
    title: 'Latency percentiles (ms, log scale)',
    width: WIDTH,
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'figure', type: 'nominal', title: null },
      yOffset: { field: 'percentile' },
      x: { field: 'value', type: 'quantitative', title: 'ms', scale: { type: 'symlog' } },
      color: { field: 'percentile', type: 'nominal', title: null },
    },
  });
}

/** Deliveries per second against the number of dispatchers (each round a point; the line through the means). */
export function scaleOutChart(points: readonly ScaleOutPoint[]): Promise<string> | undefined {
  if (points.length === 0) return undefined;
  return render({
    title: 'Outgoing dispatcher scale-out (deliveries per second)',
    width: WIDTH,
    data: { values: points.map((p) => ({ dispatchers: p.dispatchers, rate: p.deliveriesPerSecond, cpu: p.cpuMsPerDelivery })) },
    layer: [
      { mark: { type: 'point', filled: true, tooltip: true }, encoding: { x: { field: 'dispatchers', type: 'ordinal', title: 'dispatchers' }, y: { field: 'rate', type: 'quantitative', title: 'deliveries per second' } } },
      { mark: { type: 'line' }, encoding: { x: { field: 'dispatchers', type: 'ordinal' }, y: { field: 'rate', aggregate: 'mean', type: 'quantitative' } } },
    ],
  });
}
