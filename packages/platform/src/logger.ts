import pino from 'pino';
import type { DestinationStream, Logger, LevelWithSilent } from 'pino';

import { currentRequestId } from './context';
import { REDACTION_CENSOR, redactionPaths } from './redaction';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** The service name, on every line, so logs of all processes can be mixed and still read. */
  service: string;
  level?: LevelWithSilent;
  /** Where JSON lines go; stdout (synchronously) when omitted. Tests pass a stream to read what was written. */
  destination?: DestinationStream;
}

/**
 * JSON lines with ISO timestamps and textual levels, secrets and aliases redacted (see REDACTED_KEYS), and
 * the current request id added to every line written while handling a request.
 */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: redactionPaths(), censor: REDACTION_CENSOR },
    mixin: () => {
      const requestId = currentRequestId();
      return requestId === undefined ? {} : { request_id: requestId };
    },
  };
  // Synchronous writes to stdout: a line logged just before process.exit (shutdown, fatal error) is never
  // lost or reordered, which asynchronous buffering cannot promise. Sika's log volume makes the cost small.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}
