import type { commonV1 } from '@sika/contracts';
import type { Logger } from 'pino';

import { currentContext, isValidRequestId, runWithContext } from '../context';
import { AppError, GRPC_STATUS, INTERNAL_ERROR_MESSAGE, toAppError } from '../errors';
import { fromErrorDetail, toErrorDetail } from './error-mapping';
import { logLevelOf } from './unary-wrapper';

/** What answers for one item of a batched call: its value, or the error it alone failed with. */
export type ItemOutcome<Value> = { value: Value } | { error: commonV1.ErrorDetail };

/**
 * Runs each item of a batched call (say CreatePayments) as a call of its own would run: in its own request
 * context (its own request id, the call's deadline), with a failure mapped to the ErrorDetail that answers for
 * that item alone, and logged at the level the unary wrapper gives a call that failed so. The items run
 * together; the outcomes keep their order.
 */
export function settleEach<Item, Value>(
  items: readonly Item[],
  {
    requestIdOf,
    run,
    logger,
  }: {
    requestIdOf: (item: Item) => string;
    run: (item: Item) => Promise<Value>;
    logger: Logger;
  },
): Promise<ItemOutcome<Value>[]> {
  const call = currentContext();
  return Promise.all(
    items.map((item) => {
      const ownId = requestIdOf(item);
      const requestId = isValidRequestId(ownId) ? ownId : (call?.requestId ?? '');
      return runWithContext({ ...call, requestId }, () =>
        run(item).then(
          (value) => ({ value }),
          (error: unknown) => {
            const appError = toAppError(error);
            const code = appError.catalogEntry.grpcStatus;
            logger[logLevelOf(code)](
              {
                request_id: requestId,
                error_code: appError.code,
                ...(code === GRPC_STATUS.INTERNAL ? { err: appError.cause ?? appError } : {}),
              },
              'batch item failed',
            );
            return { error: toErrorDetail(appError) };
          },
        ),
      );
    }),
  );
}

/**
 * The caller's half: an item's value, else the AppError its ErrorDetail describes (internal_error for a code
 * this build does not know, or for an outcome with neither).
 */
export function valueOrError<Value>(
  value: Value | undefined,
  error: commonV1.ErrorDetail | undefined,
): Value | AppError {
  if (value !== undefined) return value;
  return (error && fromErrorDetail(error)) ?? new AppError('internal_error', INTERNAL_ERROR_MESSAGE);
}
