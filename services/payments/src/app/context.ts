import type { Clock, Logger } from '@sika/platform';
import type { Outcome } from '../domain/lifecycle';
import type { Payment } from '../domain/payment';
import type { Database, Tx } from '../infra/database';
import { writePaymentEvents } from '../infra/payment-events';
import type { PaymentRepository } from '../infra/payment-repository';

/** What every use case works with. */
export interface UseCaseContext {
  db: Database;
  payments: PaymentRepository;
  clock: Clock;
  logger: Logger;
  /** Called after a transaction that wrote events committed, so the outbox relay publishes them at once. */
  eventsCommitted(): void;
}

/** Saves a payment's new state and writes one event per status change, in the caller's transaction. */
export async function recordOutcome(
  context: UseCaseContext,
  tx: Tx,
  before: Payment,
  outcome: Outcome,
  now: Date,
): Promise<void> {
  await context.payments.save(tx, before, outcome.payment);
  await writePaymentEvents(tx, outcome.changes, now);
}
