import { startTelemetry } from '@switchyard/telemetry';

/** Loaded with `node --require` before anything else: OpenTelemetry when OTEL_* asks for it. */
const telemetry = startTelemetry('realtime');
process.once('beforeExit', () => void telemetry.shutdown());
