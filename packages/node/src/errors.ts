import type { components } from './generated/openapi';

type ErrorBody = components['schemas']['Error']['error'];
/** Every error code the API answers with (stable: codes are added, never renamed). */
export type SikaErrorCode = ErrorBody['code'];
export type SikaErrorType = ErrorBody['type'];

/** The base of everything this library throws about a request or a webhook. */
export class SikaError extends Error {
  override readonly name: string = 'SikaError';
}

/**
 * The API answered with an error: its HTTP status and the body's `type`, `code`, `param` and `request_id`
 * (quote the latter to support). One subclass per `type`.
 */
export class SikaResponseError extends SikaError {
  override readonly name: string = 'SikaResponseError';
  readonly statusCode: number;
  readonly type: SikaErrorType;
  readonly code: SikaErrorCode;
  readonly param: string | undefined;
  readonly requestId: string;
  readonly headers: Headers;

  constructor(statusCode: number, body: ErrorBody, headers: Headers) {
    super(body.message);
    this.statusCode = statusCode;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.requestId = body.request_id;
    this.headers = headers;
  }
}

/** 400, 403, 404, 409, 413, 415, 422: the request cannot succeed as it is. */
export class SikaInvalidRequestError extends SikaResponseError {
  override readonly name = 'SikaInvalidRequestError';
}
/** 401: no key, or a key that is unknown or revoked. */
export class SikaAuthenticationError extends SikaResponseError {
  override readonly name = 'SikaAuthenticationError';
}
/** 409: an Idempotency-Key reused with another body, or still in use by a request running. */
export class SikaIdempotencyError extends SikaResponseError {
  override readonly name = 'SikaIdempotencyError';
}
/** 429, after the retries: too many requests with this key, or too many failed authentications. */
export class SikaRateLimitError extends SikaResponseError {
  override readonly name = 'SikaRateLimitError';
}
/** 500 or 503 (after the retries): Sika's fault or Sika unavailable. */
export class SikaServerError extends SikaResponseError {
  override readonly name = 'SikaServerError';
}

const BY_TYPE: Record<SikaErrorType, typeof SikaResponseError> = {
  invalid_request_error: SikaInvalidRequestError,
  authentication_error: SikaAuthenticationError,
  idempotency_error: SikaIdempotencyError,
  rate_limit_error: SikaRateLimitError,
  api_error: SikaServerError,
};

function isErrorBody(value: unknown): value is { error: ErrorBody } {
  const error = (value as { error?: Partial<ErrorBody> } | null)?.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof error.type === 'string' &&
    typeof error.code === 'string' &&
    typeof error.message === 'string'
  );
}

/** The error an answer stands for; one without Sika's error body (a proxy's page, say) is a server error. */
export function errorFromResponse(statusCode: number, body: unknown, headers: Headers): SikaResponseError {
  if (isErrorBody(body)) {
    const ErrorClass = BY_TYPE[body.error.type] ?? SikaResponseError;
    return new ErrorClass(statusCode, body.error, headers);
  }
  return new SikaServerError(
    statusCode,
    {
      type: 'api_error',
      code: statusCode === 503 ? 'service_unavailable' : 'internal_error',
      message: `The API answered ${statusCode} without an error body.`,
      request_id: headers.get('request-id') ?? '',
    },
    headers,
  );
}

/** No answer: the connection failed or the request timed out, after the retries. */
export class SikaConnectionError extends SikaError {
  override readonly name = 'SikaConnectionError';
}

/** Why a webhook's signature was refused; each failure has its own. */
export type SignatureFailure =
  | 'payload_not_raw'
  | 'header_missing'
  | 'header_malformed'
  | 'timestamp_outside_tolerance'
  | 'no_matching_signature'
  | 'payload_not_json';

/** constructEvent refused a delivery: `reason` says which check failed. Answer it 400. */
export class SikaSignatureVerificationError extends SikaError {
  override readonly name = 'SikaSignatureVerificationError';

  constructor(
    readonly reason: SignatureFailure,
    message: string,
  ) {
    super(message);
  }
}
