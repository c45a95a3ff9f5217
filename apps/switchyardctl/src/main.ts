#!/usr/bin/env node
import { runCli } from './cli';

/** `switchyardctl`: the only reader of process.env and process.argv. */
runCli(process.argv.slice(2), {
  env: {
    SWITCHYARD_URL: process.env.SWITCHYARD_URL,
    SWITCHYARD_TOKEN: process.env.SWITCHYARD_TOKEN,
    SWITCHYARD_PASSWORD: process.env.SWITCHYARD_PASSWORD,
    // The dead-letter commands reach Kafka as the services do (their KAFKA_* settings).
    // cluster-backup / cluster-restore: credentials from the environment, out of `ps` (BACKUP_*).
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('KAFKA_') || key.startsWith('BACKUP_'))),
  },
  io: {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: switchyardctl.internal: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
