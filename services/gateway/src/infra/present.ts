import { AppError, INTERNAL_ERROR_MESSAGE } from '@sika/platform';

/** A message field proto3 marks optional that the callee always sets: its absence is a bug over there. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) {
    throw new AppError('internal_error', INTERNAL_ERROR_MESSAGE, {
      cause: new Error(`${what} missing in a response`),
    });
  }
  return value;
}
