/**
 * The report's figures, read from what the bench modules returned: request figures (api, incoming-hooks),
 * delivery latency (outgoing), the dispatcher scale-out rounds, and every module's figures as table rows.
 * Only shapes are relied on, never printed text.
 */
import type { ModuleRun } from './run-record';

export interface RequestFigure {
  readonly figure: string;
  readonly target: string;
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU ms per 2xx request: every process of the target, and Switchyard's own (without Kafka, MongoDB, Redis). */
  readonly cpuAllMs?: number;
  readonly cpuSwitchyardMs?: number;
}

export interface LatencyFigure {
  readonly figure: string;
  readonly target: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface ScaleOutPoint {
  readonly dispatchers: number;
  readonly deliveriesPerSecond: number;
  readonly cpuMsPerDelivery: number;
}

type Row = Readonly<Record<string, unknown>>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function rowsOf(runs: readonly ModuleRun[], module: string): Row[] {
  const figures = runs.find((r) => r.module === module)?.figures;
  return Array.isArray(figures) ? figures.filter(isRow) : [];
}

export function requestFigures(runs: readonly ModuleRun[]): RequestFigure[] {
  const fromRow = (row: Row, figure: string | undefined): RequestFigure[] => {
    const target = str(row.target);
    const requestsPerSec = num(row.requestsPerSec);
    const p50Ms = num(row.p50Ms);
    const p99Ms = num(row.p99Ms);
    if (!figure || !target || requestsPerSec === undefined || p50Ms === undefined || p99Ms === undefined) return [];
    return [{ figure, target, requestsPerSec, p50Ms, p99Ms, cpuAllMs: num(row.cpuAllMs), cpuSwitchyardMs: num(row.cpuSwitchyardMs) }];
  };
  return [
    ...rowsOf(runs, 'api').flatMap((row) => fromRow(row, str(row.route))),
    ...rowsOf(runs, 'incoming-hooks').flatMap((row) => fromRow(row, 'POST /hooks/{key}')),
  ];
}

export function latencyFigures(runs: readonly ModuleRun[]): LatencyFigure[] {
  const requests = requestFigures(runs).map(({ figure, target, p50Ms, p99Ms }) => ({ figure, target, p50Ms, p99Ms }));
  const callbacks = rowsOf(runs, 'outgoing').flatMap((row): LatencyFigure[] => {
    const target = str(row.target);
    const p50Ms = num(row.latencyP50Ms);
    const p99Ms = num(row.latencyP99Ms);
    return target && p50Ms !== undefined && p99Ms !== undefined ? [{ figure: 'post → outgoing callback', target, p50Ms, p99Ms }] : [];
  });
  return [...requests, ...callbacks];
}

/** CPU per outgoing delivery by target (the outgoing bench: its burst minus the same burst without hooks, all processes). */
export function deliveryCpuFigures(runs: readonly ModuleRun[]): { readonly target: string; readonly cpuAllMs: number }[] {
  return rowsOf(runs, 'outgoing').flatMap((row) => {
    const target = str(row.target);
    const cpuAllMs = num(row.cpuAllMsPerDelivery);
    return target && cpuAllMs !== undefined ? [{ target, cpuAllMs }] : [];
  });
}

export function scaleOutPoints(runs: readonly ModuleRun[]): ScaleOutPoint[] {
  return rowsOf(runs, 'scale-out').flatMap((row): ScaleOutPoint[] => {
    const dispatchers = num(row.dispatchers);
    const deliveriesPerSecond = num(row.deliveriesPerSecond);
    const cpuMsPerDelivery = num(row.cpuMsPerDelivery);
    return dispatchers !== undefined && deliveriesPerSecond !== undefined && cpuMsPerDelivery !== undefined ? [{ dispatchers, deliveriesPerSecond, cpuMsPerDelivery }] : [];
  });
}

/** A module's figures as flat rows (nested objects one level deep as `a.b`, lists joined), for a table. */
export function tableRows(figures: unknown): Record<string, string>[] {
  const cell = (value: unknown): string => {
    if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
    if (Array.isArray(value)) return value.map(cell).join(' / ');
    if (isRow(value)) return JSON.stringify(value);
    return String(value);
  };
  const flat = (row: Row): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(row)) {
      if (isRow(value)) for (const [inner, v] of Object.entries(value)) out[`${key}.${inner}`] = cell(v);
      else out[key] = cell(value);
    }
    return out;
  };
  if (Array.isArray(figures)) return figures.filter(isRow).map(flat);
  return isRow(figures) ? [flat(figures)] : [];
}
