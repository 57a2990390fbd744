import { HttpClient, type RequestOptions } from './http-client';
import { ListRequest, type Page } from './list';
import {
  OPERATIONS,
  type Balance,
  type BalanceTransaction,
  type BalanceTransactionListParams,
  type Event,
  type EventListParams,
  type Payment,
  type PaymentCreationInput,
  type PaymentListParams,
  type Payout,
  type PayoutCreationInput,
  type PayoutListParams,
  type ResultOf,
} from './operations';
import { constructEvent, signatureHeaderFor } from './webhooks';

export interface SikaOptions {
  /** Where the API answers, without /v1: your deployment's public URL. The local run's by default. */
  baseUrl?: string;
  /** Tries after the first, for lost connections, timeouts, 429, 503 (honouring Retry-After). 2 by default. */
  maxRetries?: number;
  /** Per try, in milliseconds. 30 s by default. */
  timeoutMs?: number;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
const KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9]+$/;

/**
 * A client of the Sika API for one secret key. The key's prefix decides the mode: `sk_test_…` acts on test
 * mode (the simulator plays the customer's bank), `sk_live_…` on live mode; `livemode` says which.
 */
export class Sika {
  readonly livemode: boolean;
  private readonly http: HttpClient;

  constructor(secretKey: string, options: SikaOptions = {}) {
    const mode = KEY_PATTERN.exec(secretKey ?? '')?.[1];
    if (mode === undefined) {
      throw new TypeError('A Sika secret key starts with sk_test_ or sk_live_ (see the dashboard).');
    }
    this.livemode = mode === 'live';
    this.http = new HttpClient({
      secretKey,
      baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 30_000,
    });
  }

  /** Spec §4.1 to §4.4. */
  readonly payments = {
    create: (params: PaymentCreationInput, options?: RequestOptions): Promise<Payment> =>
      this.http.call({ operation: OPERATIONS.createPayment, body: params, options }),
    retrieve: (id: string, options?: RequestOptions): Promise<Payment> =>
      this.http.call({ operation: OPERATIONS.retrievePayment, id, options }),
    list: (params: PaymentListParams = {}, options?: RequestOptions): ListRequest<Payment> =>
      this.list(OPERATIONS.listPayments, params, options),
    cancel: (id: string, options?: RequestOptions): Promise<Payment> =>
      this.http.call({ operation: OPERATIONS.cancelPayment, id, options }),
  };

  /** Spec §4.5: the balance of the key's mode. */
  readonly balance = {
    retrieve: (options?: RequestOptions): Promise<Balance> =>
      this.http.call({ operation: OPERATIONS.retrieveBalance, options }),
  };

  /** Spec §4.6: the account's movements. */
  readonly balanceTransactions = {
    list: (
      params: BalanceTransactionListParams = {},
      options?: RequestOptions,
    ): ListRequest<BalanceTransaction> => this.list(OPERATIONS.listBalanceTransactions, params, options),
  };

  /** Spec §4.7 to §4.9. Without an amount, the whole available balance is paid out. */
  readonly payouts = {
    create: (params?: PayoutCreationInput, options?: RequestOptions): Promise<Payout> =>
      this.http.call({ operation: OPERATIONS.createPayout, body: params, options }),
    retrieve: (id: string, options?: RequestOptions): Promise<Payout> =>
      this.http.call({ operation: OPERATIONS.retrievePayout, id, options }),
    list: (params: PayoutListParams = {}, options?: RequestOptions): ListRequest<Payout> =>
      this.list(OPERATIONS.listPayouts, params, options),
  };

  /**
   * The events sent to your webhook endpoint, each exactly as delivered, most recent first; kept at least 30
   * days. To recover missed webhooks: list from the last one you processed, and handle each idempotently.
   */
  readonly events = {
    retrieve: (id: string, options?: RequestOptions): Promise<Event> =>
      this.http.call({ operation: OPERATIONS.retrieveEvent, id, options }),
    list: (params: EventListParams = {}, options?: RequestOptions): ListRequest<Event> =>
      this.list(OPERATIONS.listEvents, params, options),
  };

  /** Test mode only (a live key is refused with 403 test_mode_only): what the customer or time would do, now. */
  readonly testHelpers = {
    payments: {
      /**
       * The customer of the payment's request waiting at their bank (alias +225 0000000004 or …07) pays it
       * now; the payment succeeds a moment later, by the ordinary path (payment.succeeded follows).
       */
      pay: (id: string, options?: RequestOptions): Promise<Payment> =>
        this.http.call({ operation: OPERATIONS.payTestPayment, id, options }),
      /** The payment expires now (payment.expired), its expires_at moved to now. */
      expire: (id: string, options?: RequestOptions): Promise<Payment> =>
        this.http.call({ operation: OPERATIONS.expireTestPayment, id, options }),
    },
  };

  /** Webhook signatures: verify a delivery, or sign a payload for a handler's tests. */
  readonly webhooks = { constructEvent, signatureHeaderFor };

  /** The OpenAPI document of the API this client talks to. */
  openApiDocument(options?: RequestOptions): Promise<ResultOf<'getOpenApiDocument'>> {
    return this.http.call({ operation: OPERATIONS.getOpenApiDocument, options });
  }

  private list<T extends { id: string }, Q extends { starting_after?: string }>(
    operation: (typeof OPERATIONS)[keyof typeof OPERATIONS],
    params: Q,
    options: RequestOptions | undefined,
  ): ListRequest<T> {
    return new ListRequest<T>(
      (startingAfter, pageOptions) =>
        this.http.call<Page<T>>({
          operation,
          query: { ...params, starting_after: startingAfter },
          options: pageOptions,
        }),
      params.starting_after,
      options,
    );
  }
}
