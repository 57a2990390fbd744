import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { commonV1 } from '@sika/contracts';

import { AppError, GRPC_STATUS, INTERNAL_ERROR_MESSAGE } from '../errors';
import { ERROR_DETAIL_TRAILER, fromServiceError, grpcFailureOf, toGrpcStatus } from './error-mapping';

/** What a grpc-js client receives for a status sent by a server. */
function asReceived(status: { code: GrpcStatus; details: string; metadata: Metadata }): ServiceError {
  return Object.assign(new Error(`${status.code} ${status.details}`), status);
}

describe('GRPC_STATUS', () => {
  it('gives each name the number @grpc/grpc-js gives it', () => {
    for (const [name, code] of Object.entries(GRPC_STATUS)) {
      expect([name, code]).toEqual([name, GrpcStatus[name as keyof typeof GrpcStatus]]);
    }
  });
});

describe('toGrpcStatus', () => {
  it('takes the status from the catalog and puts the detail in the trailer', () => {
    const status = toGrpcStatus(new AppError('alias_unknown', 'The alias is unknown.', { param: 'alias' }));

    expect(status.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(status.details).toBe('The alias is unknown.');
    const [bytes] = status.metadata.get(ERROR_DETAIL_TRAILER);
    expect(commonV1.ErrorDetail.decode(bytes as Buffer)).toEqual({
      code: 'alias_unknown',
      message: 'The alias is unknown.',
      param: 'alias',
    });
  });

  it('hides an unexpected error behind INTERNAL and a generic message', () => {
    const status = toGrpcStatus(new Error('relation "payments" does not exist'));

    expect(status.code).toBe(GrpcStatus.INTERNAL);
    expect(status.details).toBe(INTERNAL_ERROR_MESSAGE);
  });
});

describe('fromServiceError', () => {
  it('gives back the AppError thrown on the server, param included', () => {
    const thrown = new AppError('too_many_attempts', 'At most 5 attempts.', { param: 'payment' });

    const received = fromServiceError(asReceived(toGrpcStatus(thrown)));

    expect(received).toBeInstanceOf(AppError);
    expect([received.code, received.message, received.param]).toEqual([
      'too_many_attempts',
      'At most 5 attempts.',
      'payment',
    ]);
  });

  it('leaves param undefined when the server gave none', () => {
    expect(
      fromServiceError(asReceived(toGrpcStatus(new AppError('rate_limited', 'Slow down.')))).param,
    ).toBeUndefined();
  });

  it.each([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED])(
    'reads status %d without detail as service_unavailable',
    (code) => {
      expect(
        fromServiceError(asReceived({ code, details: 'no connection', metadata: new Metadata() })).code,
      ).toBe('service_unavailable');
    },
  );

  it('reads any other status without detail, or a detail with an unknown code, as internal_error', () => {
    const unknownCode = new Metadata();
    unknownCode.set(
      ERROR_DETAIL_TRAILER,
      Buffer.from(commonV1.ErrorDetail.encode({ code: 'from_the_future', message: 'x', param: '' }).finish()),
    );

    expect(
      fromServiceError(asReceived({ code: GrpcStatus.UNIMPLEMENTED, details: '', metadata: new Metadata() }))
        .code,
    ).toBe('internal_error');
    expect(
      fromServiceError(
        asReceived({ code: GrpcStatus.FAILED_PRECONDITION, details: '', metadata: unknownCode }),
      ).code,
    ).toBe('internal_error');
  });
});

describe('grpcFailureOf', () => {
  it("names gRPC's own failure of a call, and nothing when the callee sent a Sika error", () => {
    const refused = fromServiceError(
      asReceived({
        code: GrpcStatus.RESOURCE_EXHAUSTED,
        details: 'Received message larger than max (6912345 vs 4194304)',
        metadata: new Metadata(),
      }),
    );
    const sikaError = fromServiceError(
      asReceived(toGrpcStatus(new AppError('internal_error', INTERNAL_ERROR_MESSAGE))),
    );

    expect(grpcFailureOf(refused)).toBe(
      'gRPC RESOURCE_EXHAUSTED: Received message larger than max (6912345 vs 4194304)',
    );
    expect(grpcFailureOf(sikaError)).toBeUndefined();
    expect(grpcFailureOf(new AppError('internal_error', INTERNAL_ERROR_MESSAGE))).toBeUndefined();
  });
});
