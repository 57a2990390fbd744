import { keyInUse, newId, tagSpan } from '@sika/platform';
import { CURRENCY, isVisible, type VisiblePayout } from '../domain/payout';
import { destinationFor } from '../domain/payout-account';
import type { PayoutReserver } from './payout-reserver';
import type { Scope, UseCaseContext } from './ports';

export interface CreatePayoutCommand {
  scope: Scope;
  idempotencyKey: string;
  requestFingerprint: string;
  /** Undefined: the whole available balance. */
  amount: bigint | undefined;
}

/**
 * POST /v1/payouts: the destination is checked first (live mode needs a verified payout account), the payout
 * is recorded under its Idempotency-Key, then reserved. A replay answers the payout of the first request; a
 * replay of one still being reserved waits for its request's lease, then takes the reservation over.
 */
export class CreatePayout {
  constructor(private readonly deps: UseCaseContext & { reserver: PayoutReserver }) {}

  async execute(command: CreatePayoutCommand): Promise<VisiblePayout> {
    const { accounts, payouts, reserver, testAccount, clock } = this.deps;
    const { scope } = command;
    const now = clock.now();
    const destination = destinationFor(scope.livemode, await accounts.find(scope), testAccount, now);
    const payout = {
      id: newId('po'),
      ...scope,
      status: 'reserving' as const,
      method: 'manual' as const,
      requestedAmount: command.amount ?? null,
      amount: null,
      currency: CURRENCY,
      destination,
      failureCode: null,
      reasonCode: null,
      automaticFor: null,
      createdAt: now,
      paidAt: null,
      failedAt: null,
    };
    tagSpan({ payoutId: payout.id });
    const recorded = await payouts.recordRequested(
      {
        scope: { ...scope, key: command.idempotencyKey },
        operation: 'create_payout',
        fingerprint: command.requestFingerprint,
        now,
      },
      payout,
      reserver.leaseUntil(now),
    );
    if (recorded.kind === 'recorded') return reserver.reserve(payout);
    if (isVisible(recorded.payout)) return recorded.payout;
    const taken = await payouts.takeOverReservation(recorded.payout.id, reserver.leaseUntil(now), now);
    if (!taken) throw keyInUse();
    return reserver.reserve(taken);
  }
}
