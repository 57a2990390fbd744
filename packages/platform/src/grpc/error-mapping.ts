import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError, StatusObject } from '@grpc/grpc-js';
import { commonV1 } from '@sika/contracts';

import {
  AppError,
  INTERNAL_ERROR_MESSAGE,
  isErrorCode,
  SERVICE_UNAVAILABLE_MESSAGE,
  toAppError,
} from '../errors';

/** Trailer carrying the encoded commonV1.ErrorDetail of a failed call ("-bin": binary metadata). */
export const ERROR_DETAIL_TRAILER = 'sika-error-bin';

/** What of an error crosses a gRPC hop: its stable code, message and param (an unknown error's are generic). */
export function toErrorDetail(error: unknown): commonV1.ErrorDetail {
  const appError = toAppError(error);
  return { code: appError.code, message: appError.message, param: appError.param ?? '' };
}

/**
 * The gRPC mapping, done once, in the server wrapper: status from the catalog, the detail in a trailer so
 * the stable code and the param survive the hop. Unknown errors become INTERNAL with a generic message.
 */
export function toGrpcStatus(error: unknown): StatusObject {
  const appError = toAppError(error);
  const metadata = new Metadata();
  metadata.set(
    ERROR_DETAIL_TRAILER,
    Buffer.from(commonV1.ErrorDetail.encode(toErrorDetail(appError)).finish()),
  );
  return { code: appError.catalogEntry.grpcStatus, details: appError.message, metadata };
}

/** The AppError an ErrorDetail describes; undefined for a code this build does not know. */
export function fromErrorDetail(detail: commonV1.ErrorDetail, cause?: unknown): AppError | undefined {
  if (!isErrorCode(detail.code)) return undefined;
  return new AppError(detail.code, detail.message, {
    ...(detail.param === '' ? {} : { param: detail.param }),
    cause,
  });
}

function decodeErrorDetail(error: ServiceError): commonV1.ErrorDetail | undefined {
  const [value] = error.metadata?.get(ERROR_DETAIL_TRAILER) ?? [];
  if (!(value instanceof Buffer)) return undefined;
  try {
    return commonV1.ErrorDetail.decode(value);
  } catch {
    return undefined;
  }
}

/** Statuses that mean "the callee could not answer in time", not "the callee said no". */
const UNAVAILABILITY = new Set<GrpcStatus>([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED]);

/** The client half: a failed call becomes the AppError the callee threw, or a transport-level one. */
export function fromServiceError(error: ServiceError): AppError {
  const detail = decodeErrorDetail(error);
  const appError = detail === undefined ? undefined : fromErrorDetail(detail, error);
  if (appError !== undefined) return appError;
  if (UNAVAILABILITY.has(error.code)) {
    return new AppError('service_unavailable', SERVICE_UNAVAILABLE_MESSAGE, { cause: error });
  }
  return new AppError('internal_error', INTERNAL_ERROR_MESSAGE, { cause: error });
}

/**
 * How gRPC itself failed a call whose callee sent no Sika error (a message over a size limit, a deadline, a
 * connection that dropped): its status and text, which the generic message of the AppError hides. For an
 * operator's tool; undefined when the callee answered with a Sika error, whose message says it all.
 */
export function grpcFailureOf(error: AppError): string | undefined {
  const cause = error.cause as Partial<ServiceError> | undefined;
  if (typeof cause?.code !== 'number' || typeof cause.details !== 'string') return undefined;
  if (decodeErrorDetail(cause as ServiceError) !== undefined) return undefined;
  return `gRPC ${GrpcStatus[cause.code]}: ${cause.details}`;
}
