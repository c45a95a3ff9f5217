export { traceCarrierOf, type TraceCarrier } from './trace-carrier';
export { startTelemetry, shutdownTelemetry, telemetryWanted, type TelemetryHandle } from './start-telemetry';
