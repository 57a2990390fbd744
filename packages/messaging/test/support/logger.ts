import { createLogger, type Logger } from '@sika/platform';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** Silent unless TEST_LOG_LEVEL names a level (e.g. `debug` while investigating a failure). */
export function testLogger(name: string): Logger {
  const level = LEVELS.find((candidate) => candidate === process.env.TEST_LOG_LEVEL) ?? 'silent';
  return createLogger({ service: name, level });
}
