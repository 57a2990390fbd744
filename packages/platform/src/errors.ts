/** Stripe-like error families: the `type` field of the public error envelope. */
export type ErrorType =
  'invalid_request_error' | 'authentication_error' | 'idempotency_error' | 'rate_limit_error' | 'api_error';

/**
 * The gRPC status codes the catalog uses, with gRPC's own numbers (the same as `status` of @grpc/grpc-js,
 * which grpc/error-mapping.test.ts checks). Written here so that this module, and the pure code that throws
 * AppErrors, does not load gRPC.
 */
export const GRPC_STATUS = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcStatusCode = (typeof GRPC_STATUS)[keyof typeof GRPC_STATUS];

export interface ErrorCatalogEntry {
  readonly type: ErrorType;
  readonly httpStatus: number;
  readonly grpcStatus: GrpcStatusCode;
}

/**
 * Every stable error code of Sika, with its HTTP and gRPC status. This table is the single place where a
 * code gets its statuses, so the gRPC mapping (server side) and the HTTP mapping (gateway) can never
 * disagree. Codes are part of the public contract: never rename one, only add.
 *
 * gRPC statuses matter less than HTTP ones (the code itself travels in the `sika-error-bin` trailer), but
 * they are chosen so generic tooling (retries, dashboards) behaves: ABORTED and UNAVAILABLE mean "retry
 * later", FAILED_PRECONDITION means "the state forbids it, do not retry as is".
 */
export const ERROR_CATALOG = {
  parameter_invalid: {
    type: 'invalid_request_error',
    httpStatus: 400,
    grpcStatus: GRPC_STATUS.INVALID_ARGUMENT,
  },
  parameter_missing: {
    type: 'invalid_request_error',
    httpStatus: 400,
    grpcStatus: GRPC_STATUS.INVALID_ARGUMENT,
  },
  parameter_unknown: {
    type: 'invalid_request_error',
    httpStatus: 400,
    grpcStatus: GRPC_STATUS.INVALID_ARGUMENT,
  },
  invalid_json: { type: 'invalid_request_error', httpStatus: 400, grpcStatus: GRPC_STATUS.INVALID_ARGUMENT },
  body_too_large: {
    type: 'invalid_request_error',
    httpStatus: 413,
    grpcStatus: GRPC_STATUS.INVALID_ARGUMENT,
  },
  unsupported_encoding: {
    type: 'invalid_request_error',
    httpStatus: 415,
    grpcStatus: GRPC_STATUS.INVALID_ARGUMENT,
  },
  api_key_missing: { type: 'authentication_error', httpStatus: 401, grpcStatus: GRPC_STATUS.UNAUTHENTICATED },
  api_key_invalid: { type: 'authentication_error', httpStatus: 401, grpcStatus: GRPC_STATUS.UNAUTHENTICATED },
  /** A signed message (a scheme callback) whose signature does not match its body. */
  signature_invalid: {
    type: 'authentication_error',
    httpStatus: 401,
    grpcStatus: GRPC_STATUS.UNAUTHENTICATED,
  },
  resource_missing: { type: 'invalid_request_error', httpStatus: 404, grpcStatus: GRPC_STATUS.NOT_FOUND },
  route_not_found: { type: 'invalid_request_error', httpStatus: 404, grpcStatus: GRPC_STATUS.NOT_FOUND },
  method_not_allowed: {
    type: 'invalid_request_error',
    httpStatus: 405,
    grpcStatus: GRPC_STATUS.UNIMPLEMENTED,
  },
  idempotency_key_reused: {
    type: 'idempotency_error',
    httpStatus: 409,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  idempotency_key_in_use: { type: 'idempotency_error', httpStatus: 409, grpcStatus: GRPC_STATUS.ABORTED },
  payment_already_final: {
    type: 'invalid_request_error',
    httpStatus: 409,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  too_many_attempts: {
    type: 'invalid_request_error',
    httpStatus: 409,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  /** Too little time is left before expires_at for a customer to answer a new request-to-pay. */
  payment_expiring: {
    type: 'invalid_request_error',
    httpStatus: 409,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  alias_unknown: { type: 'invalid_request_error', httpStatus: 422, grpcStatus: GRPC_STATUS.INVALID_ARGUMENT },
  /** A payout larger than the available balance, or of an empty balance: nothing is reserved. */
  balance_insufficient: {
    type: 'invalid_request_error',
    httpStatus: 400,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  payout_account_missing: {
    type: 'invalid_request_error',
    httpStatus: 403,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  /** A live payout account confirmed less than 24 h ago: it receives nothing yet (a hijacked session's account). */
  payout_account_cooling_down: {
    type: 'invalid_request_error',
    httpStatus: 403,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  /**
   * The merchant's account is not activated for live use (no approved activation), so live keys cannot be
   * issued yet, or there is no activation request to approve. Dashboard and operator operations only.
   */
  account_not_activated: {
    type: 'invalid_request_error',
    httpStatus: 403,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  /** An activation request for an account already approved for live use. */
  account_already_activated: {
    type: 'invalid_request_error',
    httpStatus: 409,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  /** A test helper (POST /v1/test_helpers/…) called with a live key, or where no test mode runs. */
  test_mode_only: {
    type: 'invalid_request_error',
    httpStatus: 403,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  /** The test helper that makes the customer pay found no request of the payment they can pay now. */
  no_request_waiting: {
    type: 'invalid_request_error',
    httpStatus: 409,
    grpcStatus: GRPC_STATUS.FAILED_PRECONDITION,
  },
  rate_limited: { type: 'rate_limit_error', httpStatus: 429, grpcStatus: GRPC_STATUS.RESOURCE_EXHAUSTED },
  /**
   * An internal gRPC call from a Sika process that the method's allowlist does not name (grpc/callers.ts):
   * a fault of the deployment, never of the merchant, hence 500 if it ever reaches the public API.
   */
  caller_not_allowed: { type: 'api_error', httpStatus: 500, grpcStatus: GRPC_STATUS.PERMISSION_DENIED },
  service_unavailable: { type: 'api_error', httpStatus: 503, grpcStatus: GRPC_STATUS.UNAVAILABLE },
  internal_error: { type: 'api_error', httpStatus: 500, grpcStatus: GRPC_STATUS.INTERNAL },
} as const satisfies Record<string, ErrorCatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOG, value);
}

/** What merchants read when something unexpected failed: internals (stack, SQL, hostnames) never leak. */
export const INTERNAL_ERROR_MESSAGE =
  'An unexpected error occurred. Retry later, or contact support quoting the request_id.';

export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Retry later.';

/**
 * The one error type of Sika's layers. `code` is stable (see ERROR_CATALOG); `message` is shown to the
 * merchant as is, so it must be safe to publish; `param` names the request field at fault.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly param: string | undefined;

  constructor(code: ErrorCode, message: string, options: { param?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.param = options.param;
  }

  get catalogEntry(): ErrorCatalogEntry {
    return ERROR_CATALOG[this.code];
  }
}

/**
 * Prisma's codes for "no connection, or no transaction, in the given time" (P2024, P2028): the database is
 * saturated, which is overload, not a bug. The caller gets service_unavailable, which says when to retry.
 */
const PRISMA_SATURATION_CODES: ReadonlySet<unknown> = new Set(['P2024', 'P2028']);

/**
 * What a database, a broker or a peer that is restarting, failing over or refusing connections says: Prisma's
 * "cannot reach, timed out, closed the connection, too many connections" (P1001, P1002, P1008, P1017, P2037),
 * and its driver adapter's own `kind`s for them; the socket's refusals and
 * resets, and Postgres's SQLSTATEs for a lost connection (class 08), a shutdown or start in progress (57P01,
 * 57P02, 57P03) or too many connections (53300).
 */
const UNAVAILABLE_CODES: ReadonlySet<unknown> = new Set([
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2037',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const CONNECTION_EXCEPTION_SQLSTATE = /^08[0-9A-Z]{3}$/;
/** node-postgres says these in plain Errors, without a code. */
const LOST_CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/** What Prisma's Postgres driver adapter calls the same outages (its DriverAdapterError's `cause.kind`). */
const UNAVAILABLE_ADAPTER_KINDS: ReadonlySet<unknown> = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/**
 * The error and the errors it wraps: `cause`, an AggregateError's `errors`, and where Prisma keeps its driver
 * adapter's error (`meta.driverAdapterError`).
 */
function* errorChain(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (typeof error !== 'object' || error === null || depth > 5) return;
  const record = error as Record<string, unknown>;
  yield record;
  yield* errorChain(record.cause, depth + 1);
  yield* errorChain(record.driverAdapterError, depth + 1);
  yield* errorChain(record.meta, depth + 1);
  if (Array.isArray(record.errors)) for (const each of record.errors) yield* errorChain(each, depth + 1);
}

function isDatabaseSaturation(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    PRISMA_SATURATION_CODES.has((error as { code?: unknown }).code)
  );
}

/** A dependency that cannot serve now, as opposed to a bug: see UNAVAILABLE_CODES. */
export function isDependencyUnavailable(error: unknown): boolean {
  for (const link of errorChain(error)) {
    const { code, message, kind } = link;
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_ADAPTER_KINDS.has(kind)) return true;
    if (typeof code === 'string' && CONNECTION_EXCEPTION_SQLSTATE.test(code)) return true;
    if (typeof message === 'string' && LOST_CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * Anything that is not an AppError is a bug or an infrastructure failure: it becomes internal_error, except
 * a saturated or unavailable dependency (a database restarting, say), which becomes service_unavailable:
 * the client's retry, later, will succeed.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseSaturation(error) || isDependencyUnavailable(error)) {
    return new AppError('service_unavailable', SERVICE_UNAVAILABLE_MESSAGE, { cause: error });
  }
  return new AppError('internal_error', INTERNAL_ERROR_MESSAGE, { cause: error });
}

/** The public error envelope: `{"error": {"type", "code", "message", "param"?, "request_id"}}`. */
export interface HttpErrorBody {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param?: string;
    request_id: string;
  };
}

export interface HttpError {
  status: number;
  body: HttpErrorBody;
}

/**
 * A list's `starting_after` naming no record of the merchant and mode: resource_missing, but answered 400, as
 * Stripe does. The request is what is wrong (the list itself exists); 404 stays for a path naming nothing.
 */
const CURSOR_PARAM = 'starting_after';

function isUnknownCursor(error: AppError): boolean {
  return error.code === 'resource_missing' && error.param === CURSOR_PARAM;
}

/** The HTTP mapping, done once (by the error middleware) for every error that reaches a response. */
export function toHttpError(error: unknown, requestId: string): HttpError {
  const appError = toAppError(error);
  const { type, httpStatus } = appError.catalogEntry;
  return {
    status: isUnknownCursor(appError) ? 400 : httpStatus,
    body: {
      error: {
        type,
        code: appError.code,
        message: appError.message,
        ...(appError.param === undefined ? {} : { param: appError.param }),
        request_id: requestId,
      },
    },
  };
}
