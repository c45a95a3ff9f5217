/**
 * `npm run bench -- --report`: writes docs/benchmarks.md and its charts (docs/benchmarks/*.svg) from the
 * run's figures. Charts the run has no figures for are removed, so nothing stale is left beside the report.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cpuChart, latencyChart, scaleOutChart, throughputChart } from './charts';
import { latencyFigures, requestFigures, scaleOutPoints } from './figures';
import { reportMarkdown, type ChartFile } from './markdown';
import type { ModuleRun, RunContext } from './run-record';

export async function writeReport(docsDir: string, ctx: RunContext, runs: readonly ModuleRun[]): Promise<string> {
  const chartDir = join(docsDir, 'benchmarks');
  mkdirSync(chartDir, { recursive: true });
  const requests = requestFigures(runs);
  const wanted: { name: string; title: string; svg: Promise<string> | undefined }[] = [
    { name: 'throughput.svg', title: 'Throughput by figure', svg: throughputChart(requests) },
    { name: 'cpu-per-request.svg', title: 'CPU per request by figure', svg: cpuChart(requests) },
    { name: 'latency.svg', title: 'Latency percentiles', svg: latencyChart(latencyFigures(runs)) },
    { name: 'scale-out.svg', title: 'Dispatcher scale-out', svg: scaleOutChart(scaleOutPoints(runs)) },
  ];
  const reportPath = join(docsDir, 'benchmarks.md');
  const charts: ChartFile[] = [];
  for (const chart of wanted) {
    const path = join(chartDir, chart.name);
    if (chart.svg === undefined) {
      rmSync(path, { force: true });
      continue;
    }
    writeFileSync(path, await chart.svg);
    charts.push({ title: chart.title, path: relative(docsDir, path) });
  }
  writeFileSync(reportPath, reportMarkdown(ctx, runs, charts));
  return reportPath;
}
