import { trace } from '@opentelemetry/api';
import pino from 'pino';
import type { DestinationStream, Logger, LevelWithSilent } from 'pino';

import { currentRequestId } from './context';
import { redactKeys, scrubSecrets, serializeError, summarizeError } from './redaction';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** The service name, on every line, so logs of all processes can be mixed and still read. */
  service: string;
  level?: LevelWithSilent;
  /** Where JSON lines go; stdout (synchronously) when omitted. Tests pass a stream to read what was written. */
  destination?: DestinationStream;
}

/**
 * JSON lines with ISO timestamps and textual levels, and the current request id added to every line written
 * while handling a request, with the trace and span ids when tracing is on (tracing.ts). Nothing secret or personal is written (redaction.ts): values under redacted keys
 * at any depth (formatters), errors reduced to name, message, code and stack (serializers and the logMethod
 * hook, since pino takes a message from an error it is given alone), secrets and aliases inside any text of
 * the finished line (streamWrite).
 */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => redactKeys(object) as Record<string, unknown>,
    },
    serializers: { err: serializeError },
    hooks: { logMethod: withSafeErrorMessage, streamWrite: scrubSecrets },
    mixin: () => {
      const requestId = currentRequestId();
      const span = trace.getActiveSpan()?.spanContext();
      return {
        ...(requestId !== undefined && { request_id: requestId }),
        ...(span !== undefined && { trace_id: span.traceId, span_id: span.spanId }),
      };
    },
  };
  // Synchronous writes to stdout: a line logged just before process.exit (shutdown, fatal error) is never
  // lost or reordered, which asynchronous buffering cannot promise. Sika's log volume makes the cost small.
  const logger = pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
  // pino applies formatters.bindings to the root only; children inherit this child() from the root through
  // their prototype, so bindings at every generation are redacted before pino writes them once.
  const pinoChild = logger.child;
  logger.child = function child(this: Logger, bindings, childOptions) {
    return pinoChild.call(this, redactKeys(bindings) as pino.Bindings, childOptions);
  } as Logger['child'];
  return logger;
}

/**
 * `logger.error(error)` and `logger.error({ err })` without a message make pino take the error's own
 * message as the line's: it is given the summary's (a Prisma error's full message renders its arguments).
 */
function withSafeErrorMessage(this: Logger, args: Parameters<pino.LogFn>, method: pino.LogFn): void {
  const [first, second] = args as unknown[];
  const error =
    first instanceof Error
      ? first
      : typeof first === 'object' && first !== null && (first as { err?: unknown }).err instanceof Error
        ? (first as { err: Error }).err
        : undefined;
  if (error === undefined || typeof second === 'string') {
    method.apply(this, args);
    return;
  }
  method.call(
    this,
    first instanceof Error ? { err: first } : (first as object),
    summarizeError(error).message,
  );
}
