export { startTelemetry, telemetryWanted, type TelemetryHandle } from './start-telemetry';
