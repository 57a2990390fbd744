import { AppError, type Clock, type Logger } from '@sika/platform';
import {
  isSameAdjustment,
  planAdjustment,
  validateAdjustment,
  type AdjustmentRequest,
} from '../domain/adjustment';
import type { Scope } from '@sika/platform/pure';
import type { BookingStore, RecordedAdjustment } from './ports';

/**
 * An operator's correction of a merchant's available balance (the CLI's `ledger:adjust`): one `adjustment`
 * movement against Sika's `adjustments` account, once per idempotency key. A negative one that would leave the
 * available balance below zero is refused (balance_insufficient) and writes nothing. Every adjustment is
 * logged with who asked, why and the key, and recorded with them.
 */
export class PostAdjustment {
  constructor(private readonly deps: { bookings: BookingStore; clock: Clock; logger: Logger }) {}

  async execute(scope: Scope, input: AdjustmentRequest): Promise<RecordedAdjustment> {
    const request = validateAdjustment(input);
    const recorded = await this.deps.bookings.recordAdjustment({
      scope,
      request,
      createdAt: this.deps.clock.now(),
      plan: (available) => planAdjustment(available, request.amount),
    });
    const { adjustment, created } = recorded;
    if (!created && !isSameAdjustment(adjustment, scope, request)) {
      throw new AppError(
        'idempotency_key_reused',
        `The idempotency key was already used for adjustment ${adjustment.id}, of another merchant, mode, ` +
          'amount or reason.',
        { param: 'idempotency_key' },
      );
    }
    this.deps.logger.info(
      {
        adjustment_id: adjustment.id,
        merchant_id: adjustment.merchantId,
        livemode: adjustment.livemode,
        amount: adjustment.amount,
        reason: adjustment.reason,
        requested_by: request.requestedBy,
        idempotency_key: adjustment.idempotencyKey,
        created,
      },
      created ? 'adjustment posted' : 'adjustment repeated, answering the first',
    );
    return recorded;
  }
}
