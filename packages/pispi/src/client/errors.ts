import type { Problem7807 } from '../schemas/problem';

/**
 * Why a call to the API Business failed. `retryable` says whether the same call may succeed later; for a
 * POST it also means the outcome is unknown (the participant may have processed it), so the caller must
 * retry with the same txId or read the resource back rather than assume nothing happened.
 */
export abstract class PispiError extends Error {
  abstract readonly retryable: boolean;
}

/** The participant answered with an error status and (usually) an RFC 7807 body. */
export class PispiProblemError extends PispiError {
  override readonly name = 'PispiProblemError';
  readonly retryable: boolean;

  constructor(
    readonly status: number,
    readonly problem: Problem7807,
    operation: string,
  ) {
    super(`PI-SPI ${operation} answered ${status}${problem.title ? ` ${problem.title}` : ''}`);
    this.retryable = status >= 500 || status === 429;
  }
}

/** No answer: connection refused or reset, DNS failure, or the timeout passed. */
export class PispiNetworkError extends PispiError {
  override readonly name = 'PispiNetworkError';
  readonly retryable = true;

  constructor(operation: string, cause: unknown) {
    super(`PI-SPI ${operation} got no answer: ${describe(cause)}`, { cause });
  }
}

/** A success status with a body that is not what the document describes. */
export class PispiResponseError extends PispiError {
  override readonly name = 'PispiResponseError';
  readonly retryable = true;

  constructor(
    readonly status: number,
    operation: string,
    reason: string,
  ) {
    super(`PI-SPI ${operation} answered ${status} with an unexpected body: ${reason}`);
  }
}

/** Duck-typed: undici's errors and the timeout's DOMException may come from another realm than this Error. */
function describe(cause: unknown): string {
  const error = cause as { name?: unknown; message?: unknown; cause?: { message?: unknown } } | null;
  if (typeof error !== 'object' || error === null) return String(cause);
  if (error.name === 'TimeoutError') return 'timed out';
  const inner = typeof error.cause?.message === 'string' ? ` (${error.cause.message})` : '';
  return `${String(error.message)}${inner}`;
}
