import { status as GrpcStatus } from '@grpc/grpc-js';
import type { handleUnaryCall, sendUnaryData, ServerErrorResponse, ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from 'pino';

import { runWithContext } from '../context';
import { AppError, toAppError } from '../errors';
import { newId } from '../ids';
import type { Metrics } from '../metrics';
import { toGrpcStatus } from './error-mapping';
import { requestIdFromMetadata } from './request-metadata';
import { peerIdentity, type SikaIdentity } from './tls';

export interface UnaryWrapperDependencies {
  logger: Logger;
  metrics: Metrics | undefined;
  /** The identities allowed to call the method. */
  callers: readonly SikaIdentity[];
}

/** `/sika.payments.v1.PaymentsService/CreatePayment` → service and method, for logs and metric labels. */
export function splitMethodPath(path: string): { service: string; method: string } {
  const [, service = '', method = ''] = /^\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
  return { service, method };
}

/**
 * A call answered OK is routine: its line is for debugging (the call's histogram counts it); what went wrong
 * stays visible at the production level.
 */
export function logLevelOf(code: GrpcStatus): 'error' | 'warn' | 'info' | 'debug' {
  if (code === GrpcStatus.INTERNAL) return 'error';
  if (code === GrpcStatus.PERMISSION_DENIED) return 'warn';
  return code === GrpcStatus.OK ? 'debug' : 'info';
}

function deadlineOf(call: ServerUnaryCall<unknown, unknown>): Date | undefined {
  const deadline = call.getDeadline();
  if (deadline instanceof Date) return deadline;
  return Number.isFinite(deadline) ? new Date(deadline) : undefined;
}

/**
 * Wraps a unary handler so that a caller the method's allowlist does not name is refused before the handler
 * runs (caller_not_allowed, PERMISSION_DENIED), that it runs in the request context (request id from
 * metadata, else a new one), and so that whatever it fails with, thrown, rejected or passed to the callback,
 * is mapped once to a gRPC status with the ErrorDetail trailer, logged (with the caller's identity), and
 * measured.
 */
export function wrapUnaryHandler(
  path: string,
  handler: handleUnaryCall<unknown, unknown>,
  { logger, metrics, callers }: UnaryWrapperDependencies,
): handleUnaryCall<unknown, unknown> {
  const { service, method } = splitMethodPath(path);

  return (call, callback) => {
    const requestId = requestIdFromMetadata(call.metadata) ?? newId('req');
    const deadline = deadlineOf(call);
    const startedAt = process.hrtime.bigint();
    const caller = peerIdentity(call.getAuthContext().sslPeerCertificate);
    let answered = false;

    function record(code: GrpcStatus, fields: Record<string, unknown>): void {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const codeName = GrpcStatus[code];
      metrics?.grpcServerHandling.observe(
        { grpc_service: service, grpc_method: method, grpc_code: codeName },
        seconds,
      );
      logger[logLevelOf(code)](
        {
          request_id: requestId,
          grpc_method: path,
          ...(caller === undefined ? {} : { caller }),
          grpc_code: codeName,
          duration_ms: Math.round(seconds * 1000),
          ...fields,
        },
        'grpc call',
      );
    }

    const answer: sendUnaryData<unknown> = (error, value) => {
      if (answered) return;
      answered = true;
      if (error === null || error === undefined) {
        record(GrpcStatus.OK, {});
        callback(null, value);
        return;
      }
      const appError = toAppError(error);
      const status = toGrpcStatus(appError);
      record(status.code, {
        error_code: appError.code,
        ...(status.code === GrpcStatus.INTERNAL ? { err: appError.cause ?? appError } : {}),
      });
      callback(status);
    };

    runWithContext({ requestId, ...(deadline === undefined ? {} : { deadline }) }, () => {
      if (caller === undefined || !callers.includes(caller)) {
        const refusal: unknown = new AppError('caller_not_allowed', 'This caller may not call this method.');
        answer(refusal as ServerErrorResponse);
        return;
      }
      try {
        const returned: unknown = handler(call, answer);
        // Plain async handlers (not through unaryHandler) reject instead of calling back.
        if (returned instanceof Promise)
          returned.catch((error: unknown) => answer(error as ServerErrorResponse));
      } catch (error) {
        answer(error as ServerErrorResponse);
      }
    });
  };
}
