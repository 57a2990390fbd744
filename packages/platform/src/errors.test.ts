import { status as GrpcStatus } from '@grpc/grpc-js';

import {
  AppError,
  ERROR_CATALOG,
  INTERNAL_ERROR_MESSAGE,
  isErrorCode,
  toAppError,
  toHttpError,
} from './errors';

describe('ERROR_CATALOG', () => {
  it('gives the statuses the spec fixes (§7)', () => {
    expect(ERROR_CATALOG.idempotency_key_reused.httpStatus).toBe(409);
    expect(ERROR_CATALOG.payment_already_final.httpStatus).toBe(409);
    expect(ERROR_CATALOG.payout_account_missing.httpStatus).toBe(403);
  });

  it('gives the statuses we decided where the spec says "not stated"', () => {
    expect(ERROR_CATALOG.too_many_attempts.httpStatus).toBe(409);
    expect(ERROR_CATALOG.alias_unknown.httpStatus).toBe(422);
    expect(ERROR_CATALOG.api_key_missing).toEqual({
      type: 'authentication_error',
      httpStatus: 401,
      grpcStatus: GrpcStatus.UNAUTHENTICATED,
    });
  });

  it('maps every client error to a 4xx and every server error to a 5xx of type api_error', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      const serverSide = ['internal_error', 'service_unavailable', 'caller_not_allowed'].includes(code);
      expect([code, entry.httpStatus >= 500]).toEqual([code, serverSide]);
      expect([code, entry.type === 'api_error']).toEqual([code, serverSide]);
    }
  });

  it('uses snake_case codes only', () => {
    for (const code of Object.keys(ERROR_CATALOG)) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});

describe('isErrorCode', () => {
  it('accepts catalog codes only', () => {
    expect(isErrorCode('alias_unknown')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('made_up')).toBe(false);
  });
});

describe('toAppError', () => {
  it('keeps an AppError as it is', () => {
    const error = new AppError('alias_unknown', 'Unknown alias.', { param: 'customer_alias' });

    expect(toAppError(error)).toBe(error);
  });

  it('turns anything else into internal_error, keeping the original as cause for the logs', () => {
    const original = new TypeError("Cannot read properties of undefined (reading 'id')");

    const converted = toAppError(original);

    expect(converted.code).toBe('internal_error');
    expect(converted.message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(converted.cause).toBe(original);
  });

  it.each(['P2024', 'P2028'])(
    "turns Prisma's %s (no connection or transaction in time) into service_unavailable",
    (code) => {
      const saturated = Object.assign(new Error('Unable to start a transaction in the given time.'), {
        code,
      });

      const converted = toAppError(saturated);

      expect(converted.code).toBe('service_unavailable');
      expect(converted.cause).toBe(saturated);
    },
  );

  it.each([
    ['Postgres shutting down (57P01)', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      'Postgres starting up (57P03)',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['a lost connection (class 08)', Object.assign(new Error('connection failure'), { code: '08006' })],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['node-postgres losing its socket', new Error('Connection terminated unexpectedly')],
    [
      'Prisma unable to reach the database (P1001)',
      Object.assign(new Error("Can't reach"), { code: 'P1001' }),
    ],
    [
      'a driver adapter wrapping a shutdown',
      new Error('Driver adapter error', { cause: { kind: 'postgres', code: '57P01' } }),
    ],
    [
      'Prisma wrapping its adapter losing the connection',
      Object.assign(new Error('Server has closed the connection.'), {
        code: 'P2010',
        meta: { driverAdapterError: { cause: { kind: 'ConnectionClosed' } } },
      }),
    ],
    [
      'refusals on every address at once',
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })], 'connect failed'),
    ],
  ])('turns %s into service_unavailable: the retry will succeed', (_case, error) => {
    expect(toAppError(error).code).toBe('service_unavailable');
  });

  it('keeps a database error that is not about availability an internal_error', () => {
    const unique = Object.assign(new Error('duplicate key value'), { code: '23505' });
    expect(toAppError(unique).code).toBe('internal_error');
  });
});

describe('toHttpError', () => {
  it('answers an unknown list cursor 400 resource_missing, and a missing path resource 404', () => {
    const cursor = new AppError('resource_missing', 'No such payment.', { param: 'starting_after' });
    expect(toHttpError(cursor, 'req_1')).toMatchObject({
      status: 400,
      body: { error: { code: 'resource_missing', param: 'starting_after' } },
    });
    const path = new AppError('resource_missing', 'No such payment.', { param: 'id' });
    expect(toHttpError(path, 'req_1').status).toBe(404);
  });

  it('builds the envelope with type, code, message, param and request id', () => {
    const error = new AppError('parameter_invalid', 'amount must be an integer >= 1.', { param: 'amount' });

    expect(toHttpError(error, 'req_1')).toEqual({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          message: 'amount must be an integer >= 1.',
          param: 'amount',
          request_id: 'req_1',
        },
      },
    });
  });

  it('leaves param out when there is none', () => {
    const { body } = toHttpError(new AppError('rate_limited', 'Too many requests.'), 'req_2');

    expect(body.error).not.toHaveProperty('param');
    expect(body.error.type).toBe('rate_limit_error');
  });

  it('never leaks the message of an unexpected error', () => {
    const { status, body } = toHttpError(
      new Error('password authentication failed for user "payments"'),
      'req_3',
    );

    expect(status).toBe(500);
    expect(body.error).toEqual({
      type: 'api_error',
      code: 'internal_error',
      message: INTERNAL_ERROR_MESSAGE,
      request_id: 'req_3',
    });
  });
});
