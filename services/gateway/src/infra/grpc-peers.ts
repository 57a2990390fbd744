import {
  ledgerV1,
  MAX_PAYMENT_CREATIONS_PER_CALL,
  merchantsV1,
  paymentsV1,
  payoutsV1,
  webhooksV1,
} from '@sika/contracts';
import {
  AppError,
  createGrpcClient,
  currentRequestId,
  StatementBatcher,
  valueOrError,
  type GrpcClient,
  type GrpcTls,
} from '@sika/platform';
import {
  balanceTransactionType,
  paymentStatus,
  payoutStatus,
  renderBalance,
  renderBalanceTransaction,
  renderList,
  renderPayment,
  renderPayout,
  type PublicBalance,
  type PublicBalanceTransaction,
  type PublicEvent,
  type PublicPayment,
  type PublicPayout,
} from '@sika/public-api';

import type {
  Events,
  Idempotency,
  Ledger,
  Merchants,
  Payments,
  Payouts,
  PublicList,
  Scope,
} from '../app/ports';
import type {
  ListBalanceTransactionsQuery,
  ListEventsQuery,
  ListPaymentsQuery,
  ListPayoutsQuery,
} from '../domain/list-queries';
import type { NormalizedPaymentCreation } from '../domain/payment-creation';
import { pageAndWindow } from './list-request';
import { present } from './present';

const MODES: Record<NormalizedPaymentCreation['mode'], paymentsV1.PaymentMode> = {
  immediate: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
  on_delivery: paymentsV1.PaymentMode.PAYMENT_MODE_ON_DELIVERY,
};

export class GrpcMerchants implements Merchants {
  constructor(readonly client: GrpcClient<merchantsV1.MerchantsServiceClient>) {}

  async authenticateKey(secretKey: string): Promise<Scope> {
    const { merchantId, livemode } = await this.client.authenticateKey({ secretKey });
    return { merchantId, livemode };
  }
}

export class GrpcPayments implements Payments {
  /**
   * The creations that arrive in one turn of the event loop go to payments in one CreatePayments call: under
   * load, most of a call's cost (its stream, headers, trailers and deadline, on both sides) is shared. A
   * creation alone leaves as soon as before. If the call fails as a whole (payments unreachable, say), each of
   * its creations fails with that error; otherwise each has its own outcome.
   */
  private readonly creations: StatementBatcher<paymentsV1.PaymentCreation, paymentsV1.Payment>;

  constructor(readonly client: GrpcClient<paymentsV1.PaymentsServiceClient>) {
    this.creations = new StatementBatcher<paymentsV1.PaymentCreation, paymentsV1.Payment>(
      async (creations) => {
        const { outcomes } = await client.createPayments({ creations: [...creations] });
        return outcomes.map(({ payment, error }) => valueOrError(payment, error));
      },
      { maxBatchSize: MAX_PAYMENT_CREATIONS_PER_CALL, retryAloneWhen: () => false },
    );
  }

  async create(
    scope: Scope,
    creation: NormalizedPaymentCreation,
    idempotency: Idempotency | undefined,
  ): Promise<PublicPayment> {
    const payment = await this.creations.write({
      requestId: currentRequestId() ?? '',
      request: {
        scope,
        idempotencyKey: idempotency?.key,
        requestFingerprint: idempotency?.fingerprint ?? '',
        amount: BigInt(creation.amount),
        currency: creation.currency,
        mode: MODES[creation.mode],
        expiresAt: creation.expires_at === undefined ? undefined : new Date(creation.expires_at),
        reference: creation.reference,
        description: creation.description,
        customerAlias: creation.customer_alias,
        returnUrl: creation.return_url,
        cancelUrl: creation.cancel_url,
        metadata: creation.metadata,
      },
    });
    return renderPayment(present(payment, 'payment'));
  }

  async retrieve(scope: Scope, paymentId: string): Promise<PublicPayment> {
    const { payment } = await this.client.getPayment({ scope, paymentId });
    return renderPayment(present(payment, 'payment'));
  }

  async cancel(scope: Scope, paymentId: string, idempotencyKey: string | undefined): Promise<PublicPayment> {
    const { payment } = await this.client.cancelPayment({ scope, paymentId, idempotencyKey });
    return renderPayment(present(payment, 'payment'));
  }

  async expireNow(scope: Scope, paymentId: string): Promise<PublicPayment> {
    const { payment } = await this.client.expirePayment({ scope, paymentId });
    return renderPayment(present(payment, 'payment'));
  }

  async list(scope: Scope, query: ListPaymentsQuery): Promise<PublicList<PublicPayment>> {
    const response = await this.client.listPayments({
      scope,
      ...pageAndWindow(query),
      status:
        query.status === undefined
          ? paymentsV1.PaymentStatus.PAYMENT_STATUS_UNSPECIFIED
          : (paymentStatus.fromPublic(query.status) ?? paymentsV1.PaymentStatus.PAYMENT_STATUS_UNSPECIFIED),
      reference: query.reference,
    });
    return renderList<PublicPayment>(response.payments.map(renderPayment), response.hasMore);
  }
}

export class GrpcLedger implements Ledger {
  constructor(readonly client: GrpcClient<ledgerV1.LedgerServiceClient>) {}

  async balance(scope: Scope): Promise<PublicBalance> {
    const { balance } = await this.client.getBalance({ scope });
    return renderBalance(present(balance, 'balance'));
  }

  async listBalanceTransactions(
    scope: Scope,
    query: ListBalanceTransactionsQuery,
  ): Promise<PublicList<PublicBalanceTransaction>> {
    const response = await this.client.listBalanceTransactions({
      scope,
      ...pageAndWindow(query),
      type:
        query.type === undefined
          ? ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_UNSPECIFIED
          : (balanceTransactionType.fromPublic(query.type) ??
            ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_UNSPECIFIED),
    });
    return renderList<PublicBalanceTransaction>(
      response.balanceTransactions.map(renderBalanceTransaction),
      response.hasMore,
    );
  }
}

export class GrpcPayouts implements Payouts {
  constructor(readonly client: GrpcClient<payoutsV1.PayoutsServiceClient>) {}

  async create(
    scope: Scope,
    amount: number | undefined,
    fingerprint: string,
    idempotencyKey: string,
  ): Promise<PublicPayout> {
    const { payout } = await this.client.createPayout({
      scope,
      idempotencyKey,
      requestFingerprint: fingerprint,
      ...(amount !== undefined && { amount: BigInt(amount) }),
    });
    return renderPayout(present(payout, 'payout'));
  }

  async retrieve(scope: Scope, payoutId: string): Promise<PublicPayout> {
    const { payout } = await this.client.getPayout({ scope, payoutId });
    return renderPayout(present(payout, 'payout'));
  }

  async list(scope: Scope, query: ListPayoutsQuery): Promise<PublicList<PublicPayout>> {
    const response = await this.client.listPayouts({
      scope,
      ...pageAndWindow(query),
      status:
        query.status === undefined
          ? payoutsV1.PayoutStatus.PAYOUT_STATUS_UNSPECIFIED
          : (payoutStatus.fromPublic(query.status) ?? payoutsV1.PayoutStatus.PAYOUT_STATUS_UNSPECIFIED),
    });
    return renderList<PublicPayout>(response.payouts.map(renderPayout), response.hasMore);
  }
}

/**
 * webhook-dispatcher's event store, the dashboard's source too. Each event is answered as the JSON its
 * webhooks carried (the stored body, parsed), so a merchant reads back exactly what was delivered.
 */
export class GrpcEvents implements Events {
  constructor(readonly client: GrpcClient<webhooksV1.WebhooksServiceClient>) {}

  async retrieve(scope: Scope, eventId: string): Promise<PublicEvent> {
    try {
      const { event } = await this.client.getEvent({ scope, eventId });
      return publicEventOf(present(event, 'event'));
    } catch (error) {
      // The dispatcher names its own field (event_id); the public API names the path's.
      if (error instanceof AppError && error.code === 'resource_missing') {
        throw new AppError('resource_missing', `No such event: '${eventId}'.`, { param: 'id' });
      }
      throw error;
    }
  }

  async list(scope: Scope, query: ListEventsQuery): Promise<PublicList<PublicEvent>> {
    const { page, createdFrom, createdTo } = pageAndWindow(query);
    const response = await this.client.listEvents({
      scope,
      page,
      objectId: query.object_id,
      type: query.type,
      createdFrom,
      createdTo,
    });
    return renderList<PublicEvent>(response.events.map(publicEventOf), response.hasMore);
  }
}

const publicEventOf = (event: webhooksV1.Event): PublicEvent => JSON.parse(event.payload) as PublicEvent;

export interface PeerAddresses {
  merchants: string;
  payments: string;
  ledger: string;
  payouts: string;
  webhooks: string;
}

/** The services behind the public API (`host:port` each), over mutual TLS; channels connect lazily. */
export function connectPeers(addresses: PeerAddresses, deadlineMs: number, tls: GrpcTls) {
  const options = { deadlineMs, tls };
  const merchants = new GrpcMerchants(
    createGrpcClient(merchantsV1.MerchantsServiceClient, addresses.merchants, options),
  );
  const payments = new GrpcPayments(
    createGrpcClient(paymentsV1.PaymentsServiceClient, addresses.payments, options),
  );
  const ledger = new GrpcLedger(createGrpcClient(ledgerV1.LedgerServiceClient, addresses.ledger, options));
  const payouts = new GrpcPayouts(
    createGrpcClient(payoutsV1.PayoutsServiceClient, addresses.payouts, options),
  );
  const events = new GrpcEvents(
    createGrpcClient(webhooksV1.WebhooksServiceClient, addresses.webhooks, options),
  );
  return {
    merchants,
    payments,
    ledger,
    payouts,
    events,
    close(): void {
      for (const peer of [merchants, payments, ledger, payouts, events]) peer.client.close();
    },
  };
}
