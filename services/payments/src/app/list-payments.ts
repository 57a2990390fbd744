import { AppError, pageLimit } from '@sika/platform';
import type { Payment, PaymentStatus } from '../domain/payment';
import { TEXT_LIMITS } from '@sika/rules';
import { checkText } from '../domain/payment-input';
import type { Scope } from './ports';
import type { UseCaseContext } from './ports';

export interface ListPaymentsQuery {
  scope: Scope;
  /** 0 when not given. */
  limit: number;
  startingAfter: string | null;
  status: PaymentStatus | null;
  reference: string | null;
  /** Inclusive. */
  createdFrom: Date | null;
  /** Exclusive. */
  createdTo: Date | null;
}

/** GET /v1/payments (spec §4.2): most recent first; starting_after must name a payment of the same scope. */
export class ListPayments {
  constructor(private readonly context: UseCaseContext) {}

  async execute(query: ListPaymentsQuery): Promise<{ payments: Payment[]; hasMore: boolean }> {
    const { db, payments } = this.context;
    const limit = pageLimit(query.limit);
    checkText('reference', query.reference, TEXT_LIMITS.reference);
    let after: { id: string; createdAt: Date } | null = null;
    if (query.startingAfter !== null) {
      const cursor = await payments.findInScope(db.reader, query.scope, query.startingAfter);
      if (cursor === null) {
        throw new AppError('resource_missing', 'No such payment.', { param: 'starting_after' });
      }
      after = { id: cursor.id, createdAt: cursor.createdAt };
    }
    return payments.list(db.reader, { ...query, limit, after });
  }
}
