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

/**
 * The gRPC mapping, done once, in the server wrapper: status from the catalog, the detail in a trailer so
 * the stable code and the param survive the hop. Unknown errors become INTERNAL with a generic message.
 */
export function toGrpcStatus(error: unknown): StatusObject {
  const appError = toAppError(error);
  const detail = commonV1.ErrorDetail.encode({
    code: appError.code,
    message: appError.message,
    param: appError.param ?? '',
  }).finish();
  const metadata = new Metadata();
  metadata.set(ERROR_DETAIL_TRAILER, Buffer.from(detail));
  return { code: appError.catalogEntry.grpcStatus, details: appError.message, metadata };
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
  if (detail !== undefined && isErrorCode(detail.code)) {
    return new AppError(detail.code, detail.message, {
      ...(detail.param === '' ? {} : { param: detail.param }),
      cause: error,
    });
  }
  if (UNAVAILABILITY.has(error.code)) {
    return new AppError('service_unavailable', SERVICE_UNAVAILABLE_MESSAGE, { cause: error });
  }
  return new AppError('internal_error', INTERNAL_ERROR_MESSAGE, { cause: error });
}
