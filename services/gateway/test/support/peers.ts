import { ledgerV1, merchantsV1, paymentsV1, payoutsV1, webhooksV1, type commonV1 } from '@sika/contracts';
import {
  AppError,
  createLogger,
  maskAlias,
  newId,
  settleEach,
  startGrpcServer,
  unaryHandler,
  type RunningGrpcServer,
} from '@sika/platform';
import { allowEveryMethod, testIdentity } from '@sika/testing';

/**
 * Small, honest stand-ins for merchants, payments, ledger and payouts, served over real gRPC: in-memory state, the
 * same scoping and error codes as the real services, and a record of every call so tests can check what
 * the gateway sent (or that it sent nothing).
 */
export interface RecordedCall {
  method: string;
  request: unknown;
}

const silent = createLogger({ service: 'gateway-test-peer', level: 'silent' });

function scopeKey(scope: commonV1.Scope | undefined): string {
  if (scope === undefined) throw new AppError('parameter_missing', 'scope is required', { param: 'scope' });
  return `${scope.merchantId}:${scope.livemode}`;
}

function sameScope(
  record: { merchantId: string; livemode: boolean },
  scope: commonV1.Scope | undefined,
): boolean {
  return scopeKey(scope) === `${record.merchantId}:${record.livemode}`;
}

/** Newest first, then the page after `startingAfter`, as every list of spec §4 pages. */
function page<T extends { id: string }>(newestFirst: T[], request: commonV1.PageRequest | undefined) {
  const limit = request?.limit ?? 20;
  let start = 0;
  if (request?.startingAfter !== undefined) {
    const index = newestFirst.findIndex((item) => item.id === request.startingAfter);
    if (index < 0)
      throw new AppError('resource_missing', 'No such object to start after.', { param: 'starting_after' });
    start = index + 1;
  }
  const items = newestFirst.slice(start, start + limit);
  return { items, hasMore: start + limit < newestFirst.length };
}

function inRange(createdAt: Date | undefined, from: Date | undefined, to: Date | undefined): boolean {
  const time = createdAt?.getTime() ?? 0;
  return (from === undefined || time >= from.getTime()) && (to === undefined || time < to.getTime());
}

/** Strictly increasing creation times, so "most recent first" is never a tie. */
function clockTicks() {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last);
  };
}

export class MerchantsPeer {
  readonly calls: RecordedCall[] = [];
  readonly keys = new Map<string, { merchantId: string; livemode: boolean }>();

  readonly implementation = {
    authenticateKey: unaryHandler(async (request: merchantsV1.AuthenticateKeyRequest) => {
      this.calls.push({ method: 'authenticateKey', request });
      const owner = this.keys.get(request.secretKey);
      if (owner === undefined) throw new AppError('api_key_invalid', 'Invalid API key provided.');
      return owner satisfies merchantsV1.AuthenticateKeyResponse;
    }),
  };
}

const FINAL_STATUSES = new Set([
  paymentsV1.PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
  paymentsV1.PaymentStatus.PAYMENT_STATUS_DECLINED,
  paymentsV1.PaymentStatus.PAYMENT_STATUS_EXPIRED,
  paymentsV1.PaymentStatus.PAYMENT_STATUS_CANCELED,
  paymentsV1.PaymentStatus.PAYMENT_STATUS_FAILED,
]);

export class PaymentsPeer {
  readonly calls: RecordedCall[] = [];
  readonly payments: paymentsV1.Payment[] = [];
  /** Makes creations last this long, to have two requests with one key in flight together. */
  createDelayMs = 0;
  private readonly idempotency = new Map<string, { fingerprint: string; paymentId?: string }>();
  private readonly tick = clockTicks();

  readonly implementation = {
    createPayments: unaryHandler(async (request: paymentsV1.CreatePaymentsRequest) => {
      this.calls.push({ method: 'createPayments', request });
      const outcomes = await settleEach(request.creations, {
        requestIdOf: (creation) => creation.requestId,
        run: ({ request: creation }) => this.create(creation),
        logger: silent,
      });
      return {
        outcomes: outcomes.map((outcome) => ('value' in outcome ? { payment: outcome.value } : outcome)),
      };
    }),
    getPayment: unaryHandler(async (request: paymentsV1.GetPaymentRequest) => {
      this.calls.push({ method: 'getPayment', request });
      return { payment: this.findInScope(request.paymentId, request.scope) };
    }),
    listPayments: unaryHandler(async (request: paymentsV1.ListPaymentsRequest) => {
      this.calls.push({ method: 'listPayments', request });
      const matching = this.payments
        .filter((payment) => sameScope(payment, request.scope))
        .filter((payment) => request.status === 0 || payment.status === request.status)
        .filter((payment) => request.reference === undefined || payment.reference === request.reference)
        .filter((payment) => inRange(payment.createdAt, request.createdFrom, request.createdTo))
        .reverse();
      const { items, hasMore } = page(matching, request.page);
      return { payments: items, hasMore };
    }),
    cancelPayment: unaryHandler(async (request: paymentsV1.CancelPaymentRequest) => {
      this.calls.push({ method: 'cancelPayment', request });
      const payment = this.findInScope(request.paymentId, request.scope);
      if (payment.status === paymentsV1.PaymentStatus.PAYMENT_STATUS_CANCELED) return { payment };
      if (FINAL_STATUSES.has(payment.status)) {
        throw new AppError('payment_already_final', `Payment ${payment.id} is already final.`);
      }
      payment.status = paymentsV1.PaymentStatus.PAYMENT_STATUS_CANCELED;
      return { payment };
    }),
  };

  /** The last creation payments was sent, in whichever call it travelled. */
  lastCreation(): paymentsV1.CreatePaymentRequest | undefined {
    const last = this.calls.filter((call) => call.method === 'createPayments').at(-1);
    return (last?.request as paymentsV1.CreatePaymentsRequest | undefined)?.creations.at(-1)?.request;
  }

  private async create(request: paymentsV1.CreatePaymentRequest | undefined): Promise<paymentsV1.Payment> {
    if (request === undefined) throw new AppError('parameter_missing', 'A creation has no request.');
    const key =
      request.idempotencyKey === undefined
        ? undefined
        : `${scopeKey(request.scope)}:${request.idempotencyKey}`;
    const earlier = key === undefined ? undefined : this.idempotency.get(key);
    if (earlier !== undefined) {
      if (earlier.fingerprint !== request.requestFingerprint) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with another body.');
      }
      if (earlier.paymentId === undefined) {
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running.');
      }
      return this.find(earlier.paymentId);
    }
    const entry: { fingerprint: string; paymentId?: string } = { fingerprint: request.requestFingerprint };
    if (key !== undefined) this.idempotency.set(key, entry);
    if (this.createDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.createDelayMs));
    const payment = this.newPayment(request);
    this.payments.push(payment);
    entry.paymentId = payment.id;
    return payment;
  }

  /** A payment written directly, e.g. one already succeeded or one of another merchant. */
  seed(scope: commonV1.Scope, overrides: Partial<paymentsV1.Payment> = {}): paymentsV1.Payment {
    const payment = {
      ...this.newPayment({
        scope,
        requestFingerprint: '',
        amount: 1_000n,
        currency: 'XOF',
        mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
        returnUrl: 'https://shop.example/return',
        metadata: {},
      }),
      ...overrides,
    };
    this.payments.push(payment);
    return payment;
  }

  private newPayment(request: paymentsV1.CreatePaymentRequest): paymentsV1.Payment {
    const createdAt = this.tick();
    const id = newId('pay');
    const alias = request.customerAlias;
    return {
      id,
      merchantId: request.scope?.merchantId ?? '',
      livemode: request.scope?.livemode ?? false,
      status:
        alias === undefined
          ? paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED
          : paymentsV1.PaymentStatus.PAYMENT_STATUS_REQUEST_SENT,
      amount: request.amount,
      currency: request.currency,
      mode: request.mode,
      reference: request.reference,
      description: request.description,
      txId: alias === undefined ? undefined : `SIKA${id.slice(4, 20)}`,
      payerAliasMasked: alias === undefined ? undefined : maskAlias(alias),
      checkoutUrl: `http://127.0.0.1:8081/pay/${id}`,
      returnUrl: request.returnUrl,
      cancelUrl: request.cancelUrl,
      expiresAt: request.expiresAt ?? new Date(createdAt.getTime() + 5 * 60_000),
      createdAt,
      metadata: { ...request.metadata },
      attempts:
        alias === undefined
          ? []
          : [
              {
                id: newId('att'),
                txId: `SIKA${id.slice(4, 20)}`,
                status: paymentsV1.AttemptStatus.ATTEMPT_STATUS_SENT,
                payerAliasMasked: maskAlias(alias),
                duplicate: false,
                createdAt,
              },
            ],
    };
  }

  private find(paymentId: string): paymentsV1.Payment {
    const payment = this.payments.find((candidate) => candidate.id === paymentId);
    if (payment === undefined)
      throw new AppError('resource_missing', `No such payment: '${paymentId}'.`, { param: 'id' });
    return payment;
  }

  /** Another merchant's or the other mode's payment does not exist, as far as this caller can tell. */
  private findInScope(paymentId: string, scope: commonV1.Scope | undefined): paymentsV1.Payment {
    const payment = this.payments.find(
      (candidate) => candidate.id === paymentId && sameScope(candidate, scope),
    );
    if (payment === undefined)
      throw new AppError('resource_missing', `No such payment: '${paymentId}'.`, { param: 'id' });
    return payment;
  }
}

export class LedgerPeer {
  readonly calls: RecordedCall[] = [];
  readonly movements: ledgerV1.BalanceTransaction[] = [];
  private readonly merchantOf = new Map<string, string>();
  private readonly tick = clockTicks();

  readonly implementation = {
    getBalance: unaryHandler(async (request: ledgerV1.GetBalanceRequest) => {
      this.calls.push({ method: 'getBalance', request });
      const available = this.inScope(request.scope).reduce((sum, movement) => sum + movement.amount, 0n);
      return {
        balance: {
          available,
          pendingPayout: 0n,
          currency: 'XOF',
          livemode: request.scope?.livemode ?? false,
        },
      };
    }),
    listBalanceTransactions: unaryHandler(async (request: ledgerV1.ListBalanceTransactionsRequest) => {
      this.calls.push({ method: 'listBalanceTransactions', request });
      const matching = this.inScope(request.scope)
        .filter((movement) => request.type === 0 || movement.type === request.type)
        .filter((movement) => inRange(movement.createdAt, request.createdFrom, request.createdTo))
        .reverse();
      const { items, hasMore } = page(matching, request.page);
      return { balanceTransactions: items, hasMore };
    }),
  };

  /** The two movements of a succeeded payment, as ledger posts them. */
  creditPayment(scope: commonV1.Scope, paymentId: string, amount: bigint, fee: bigint): void {
    for (const [type, signed] of [
      [ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_PAYMENT, amount],
      [ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_FEE, -fee],
    ] as const) {
      const movement = {
        id: newId('txn'),
        type,
        amount: signed,
        currency: 'XOF',
        sourceId: paymentId,
        livemode: scope.livemode,
        createdAt: this.tick(),
      };
      this.merchantOf.set(movement.id, scope.merchantId);
      this.movements.push(movement);
    }
  }

  private inScope(scope: commonV1.Scope | undefined): ledgerV1.BalanceTransaction[] {
    return this.movements.filter((movement) =>
      sameScope({ merchantId: this.merchantOf.get(movement.id) ?? '', livemode: movement.livemode }, scope),
    );
  }
}

/** Payouts of the whole (fixed) test balance or of an amount; idempotent per key and fingerprint. */
export class PayoutsPeer {
  readonly calls: RecordedCall[] = [];
  readonly payouts: { merchantId: string; payout: payoutsV1.Payout }[] = [];
  private readonly keys = new Map<string, { fingerprint: string; payout: payoutsV1.Payout }>();
  private readonly tick = clockTicks();

  readonly implementation = {
    createPayout: unaryHandler(async (request: payoutsV1.CreatePayoutRequest) => {
      this.calls.push({ method: 'createPayout', request });
      const key = `${scopeKey(request.scope)}:${request.idempotencyKey}`;
      const stored = this.keys.get(key);
      if (stored) {
        if (stored.fingerprint !== request.requestFingerprint) {
          throw new AppError('idempotency_key_reused', 'This idempotency key was already used.');
        }
        return { payout: stored.payout };
      }
      const payout = payoutsV1.Payout.fromPartial({
        id: newId('po'),
        merchantId: request.scope?.merchantId ?? '',
        livemode: request.scope?.livemode ?? false,
        amount: request.amount ?? 1_000n,
        currency: 'XOF',
        status: payoutsV1.PayoutStatus.PAYOUT_STATUS_PENDING,
        method: payoutsV1.PayoutMethod.PAYOUT_METHOD_MANUAL,
        destination: {
          aliasType: payoutsV1.AliasType.ALIAS_TYPE_PHONE,
          aliasMasked: maskAlias('+225 0000000100'),
          holderName: 'Marchand Test Sika',
        },
        createdAt: this.tick(),
      });
      this.keys.set(key, { fingerprint: request.requestFingerprint, payout });
      this.payouts.push({ merchantId: payout.merchantId, payout });
      return { payout };
    }),
    getPayout: unaryHandler(async (request: payoutsV1.GetPayoutRequest) => {
      this.calls.push({ method: 'getPayout', request });
      const found = this.inScope(request.scope).find((payout) => payout.id === request.payoutId);
      if (!found) throw new AppError('resource_missing', 'No such payout.', { param: 'id' });
      return { payout: found };
    }),
    listPayouts: unaryHandler(async (request: payoutsV1.ListPayoutsRequest) => {
      this.calls.push({ method: 'listPayouts', request });
      const matching = this.inScope(request.scope)
        .filter((payout) => request.status === 0 || payout.status === request.status)
        .filter((payout) => inRange(payout.createdAt, request.createdFrom, request.createdTo))
        .reverse();
      const { items, hasMore } = page(matching, request.page);
      return { payouts: items, hasMore };
    }),
  };

  private inScope(scope: commonV1.Scope | undefined): payoutsV1.Payout[] {
    return this.payouts.filter(({ payout }) => sameScope(payout, scope)).map(({ payout }) => payout);
  }
}

/** webhook-dispatcher's event store: events as stored bodies, listed and filtered as the real one does. */
export class WebhooksPeer {
  readonly calls: RecordedCall[] = [];
  readonly events: {
    merchantId: string;
    livemode: boolean;
    objectId: unknown;
    event: webhooksV1.Event;
  }[] = [];
  private readonly tick = clockTicks();

  /** Stores an event about `object` (a payment or payout in its public shape) and returns its body. */
  record(
    scope: { merchantId: string; livemode: boolean },
    type: string,
    object: Record<string, unknown>,
    createdAt: Date = this.tick(),
  ): Record<string, unknown> {
    const id = newId('evt');
    const body = {
      id,
      object: 'event',
      type,
      created_at: createdAt.toISOString(),
      livemode: scope.livemode,
      data: { object },
    };
    const payload = JSON.stringify(body);
    this.events.push({
      ...scope,
      objectId: object['id'],
      event: { id, type, createdAt, payload, delivery: undefined },
    });
    return body;
  }

  readonly implementation = {
    getEvent: unaryHandler(async (request: webhooksV1.GetEventRequest) => {
      this.calls.push({ method: 'getEvent', request });
      const found = this.events.find(
        (stored) => sameScope(stored, request.scope) && stored.event.id === request.eventId,
      );
      if (!found) throw new AppError('resource_missing', 'No such event.', { param: 'event_id' });
      return { event: found.event };
    }),
    listEvents: unaryHandler(async (request: webhooksV1.ListEventsRequest) => {
      this.calls.push({ method: 'listEvents', request });
      const matching = this.events
        .filter((stored) => sameScope(stored, request.scope))
        .filter((stored) => request.objectId === undefined || stored.objectId === request.objectId)
        .filter((stored) => request.type === undefined || stored.event.type === request.type)
        .filter((stored) => inRange(stored.event.createdAt, request.createdFrom, request.createdTo))
        .map((stored) => stored.event)
        .reverse();
      const { items, hasMore } = page(matching, request.page);
      return { events: items, hasMore };
    }),
  };
}

export interface Peers {
  merchants: MerchantsPeer;
  payments: PaymentsPeer;
  ledger: LedgerPeer;
  payouts: PayoutsPeer;
  webhooks: WebhooksPeer;
  addresses: { merchants: string; payments: string; ledger: string; payouts: string; webhooks: string };
  /** Calls made to payments and ledger (merchants is asked on every authenticated request). */
  downstreamCalls(): RecordedCall[];
  close(): Promise<void>;
}

/** A stand-in serves over mutual TLS as the service it stands for, to the gateway alone. */
async function serve(
  identity: string,
  definition: object,
  implementation: object,
): Promise<RunningGrpcServer> {
  return startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: silent,
    services: [
      {
        definition: definition as never,
        implementation: implementation as never,
        callers: allowEveryMethod(definition, ['gateway']),
      },
    ],
    tls: (await testIdentity(identity)).tls,
  });
}

export async function startPeers(): Promise<Peers> {
  const merchants = new MerchantsPeer();
  const payments = new PaymentsPeer();
  const ledger = new LedgerPeer();
  const payouts = new PayoutsPeer();
  const webhooks = new WebhooksPeer();
  const servers = await Promise.all([
    serve('merchants', merchantsV1.MerchantsServiceService, merchants.implementation),
    serve('payments', paymentsV1.PaymentsServiceService, payments.implementation),
    serve('ledger', ledgerV1.LedgerServiceService, ledger.implementation),
    serve('payouts', payoutsV1.PayoutsServiceService, payouts.implementation),
    serve('webhook-dispatcher', webhooksV1.WebhooksServiceService, webhooks.implementation),
  ]);
  const [merchantsServer, paymentsServer, ledgerServer, payoutsServer, webhooksServer] = servers;
  return {
    merchants,
    payments,
    ledger,
    payouts,
    webhooks,
    addresses: {
      merchants: `127.0.0.1:${merchantsServer!.port}`,
      payments: `127.0.0.1:${paymentsServer!.port}`,
      ledger: `127.0.0.1:${ledgerServer!.port}`,
      payouts: `127.0.0.1:${payoutsServer!.port}`,
      webhooks: `127.0.0.1:${webhooksServer!.port}`,
    },
    downstreamCalls: () => [...payments.calls, ...ledger.calls, ...payouts.calls, ...webhooks.calls],
    close: async () => {
      await Promise.all(servers.map((server) => server.shutdown(1_000)));
    },
  };
}
