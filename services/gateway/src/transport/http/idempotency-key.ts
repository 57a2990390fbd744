import { AppError } from '@sika/platform';
import type { Request } from 'express';

import { IDEMPOTENCY_KEY_HEADER } from '../../domain/request-parts';
import { parseInput } from '../../domain/validation';
import type { RequestSchemas } from './request-schemas';

/** The request's Idempotency-Key, validated; undefined when it sent none. */
export function idempotencyKeyOf(request: Request, schemas: RequestSchemas): string | undefined {
  const header = request.get(IDEMPOTENCY_KEY_HEADER);
  return header === undefined
    ? undefined
    : parseInput(schemas.idempotencyKey, header, { name: IDEMPOTENCY_KEY_HEADER });
}

/** The same, where a key is required (decided for payouts): without one, 400 parameter_missing. */
export function requiredIdempotencyKeyOf(request: Request, schemas: RequestSchemas, what: string): string {
  const key = idempotencyKeyOf(request, schemas);
  if (key === undefined) {
    throw new AppError(
      'parameter_missing',
      `The ${IDEMPOTENCY_KEY_HEADER} header is required to ${what}: send a unique key per request.`,
      { param: IDEMPOTENCY_KEY_HEADER },
    );
  }
  return key;
}
