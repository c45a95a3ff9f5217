import { startTelemetry } from '@switchyard/telemetry';

/** Loaded with `node --require` before anything else, so HTTP and undici are traced from the start. */
const telemetry = startTelemetry('gateway');
process.once('beforeExit', () => void telemetry.shutdown());
