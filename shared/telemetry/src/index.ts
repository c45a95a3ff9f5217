export { startTelemetry, shutdownTelemetry, telemetryWanted, type TelemetryHandle } from './start-telemetry';
