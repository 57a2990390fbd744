import { Writable } from 'node:stream';

import { currentRequestId, runWithContext } from '../context';
import { AppError, INTERNAL_ERROR_MESSAGE } from '../errors';
import { createLogger } from '../logger';
import { settleEach, valueOrError } from './batch-items';

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(
        ...chunk
          .toString()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
      done();
    },
  });
  return { logger: createLogger({ service: 'payments', level: 'info', destination: stream }), lines };
}

describe('settleEach', () => {
  it("runs each item in its own request context and answers each with its value or its error's detail, in order", async () => {
    const { logger, lines } = capturedLogger();
    const items = [
      { requestId: 'req_a', n: 1 },
      { requestId: 'req_b', n: -1 },
      { requestId: 'not an id', n: 2 },
      { requestId: 'req_d', n: 0 },
    ];
    const outcomes = await runWithContext({ requestId: 'req_call' }, () =>
      settleEach(items, {
        requestIdOf: (item) => item.requestId,
        run: async ({ n }) => {
          if (n < 0) throw new AppError('parameter_invalid', 'n must not be negative.', { param: 'n' });
          if (n === 0) throw new Error('connection terminated unexpectedly');
          return `${currentRequestId()}:${n}`;
        },
        logger,
      }),
    );

    expect(outcomes).toEqual([
      { value: 'req_a:1' },
      { error: { code: 'parameter_invalid', message: 'n must not be negative.', param: 'n' } },
      // An id that does not look like one is not trusted: the call's own stands in.
      { value: 'req_call:2' },
      { error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE, param: '' } },
    ]);
    expect(lines.map(({ level, request_id, error_code }) => [level, request_id, error_code])).toEqual([
      ['info', 'req_b', 'parameter_invalid'],
      ['error', 'req_d', 'internal_error'],
    ]);
    expect(lines[1]?.['err']).toMatchObject({ message: 'connection terminated unexpectedly' });
  });
});

describe('valueOrError', () => {
  it('gives the value, else the AppError the detail describes, else internal_error', () => {
    expect(valueOrError('pay_1', undefined)).toBe('pay_1');
    const known = valueOrError(undefined, {
      code: 'resource_missing',
      message: 'No such payment.',
      param: 'id',
    });
    expect(known).toBeInstanceOf(AppError);
    expect(known).toMatchObject({ code: 'resource_missing', message: 'No such payment.', param: 'id' });
    expect(valueOrError(undefined, { code: 'from_a_newer_build', message: 'x', param: '' })).toMatchObject({
      code: 'internal_error',
      message: INTERNAL_ERROR_MESSAGE,
    });
    expect(valueOrError(undefined, undefined)).toMatchObject({ code: 'internal_error' });
  });
});
