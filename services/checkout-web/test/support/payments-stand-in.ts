import { paymentsV1 } from '@sika/contracts';
import { AppError, createLogger, ID_PREFIXES, newId, startGrpcServer, unaryHandler } from '@sika/platform';
import type { RunningGrpcServer } from '@sika/platform';
import { checkoutTokenOf } from '@sika/rules';
import { allowEveryMethod, testIdentity } from '@sika/testing';

const { PaymentStatus, AttemptStatus, PaymentMode } = paymentsV1;

/** The CHECKOUT_TOKEN_KEY shared by the stand-in (as payments) and the checkout-web under test. */
export const TEST_CHECKOUT_TOKEN_KEY = 'checkout-web-test-token-key-0123456789';

/** The path of a payment's page, token included, as in its checkout_url. */
export function pagePathOf(paymentId: string): string {
  return `/pay/${paymentId}/${checkoutTokenOf(TEST_CHECKOUT_TOKEN_KEY, paymentId)}`;
}

/**
 * An honest in-memory PaymentsService for checkout-web's tests, served over real gRPC: the two methods the
 * page calls, with payments' rules for them (alias formats, at most 5 attempts, no attempt on a closed
 * payment) and the test-mode aliases of spec §1 for what the "bank" then does. The bank answers after
 * `bankDelayMs`, applied when the payment is next read, so nothing runs on timers between tests.
 */
export const ALIASES = {
  pays: '+225 0000000001',
  refuses: '+225 0000000002',
  ignores: '+225 0000000003',
  unknown: '+225 0000000005',
} as const;

interface BankAnswer {
  at: number;
  attempt: paymentsV1.Attempt;
  outcome: 'paid' | 'refused';
}

const PHONE = /^\+(\d{3})(\d{8,10})$/;
const IDENTIFIER = /^[A-Za-z0-9-]{1,36}$/;

function normalisedAlias(raw: string): string {
  const phone = raw.startsWith('+') ? PHONE.exec(raw.replace(/[\s.-]/g, '')) : null;
  if (phone) return `+${phone[1]} ${phone[2]}`;
  if (raw.length <= 40 && IDENTIFIER.test(raw)) return raw;
  throw new AppError('parameter_invalid', 'The alias is not a phone number nor an identifier.', {
    param: 'customer_alias',
  });
}

const FINAL = new Set([
  PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
  PaymentStatus.PAYMENT_STATUS_DECLINED,
  PaymentStatus.PAYMENT_STATUS_EXPIRED,
  PaymentStatus.PAYMENT_STATUS_CANCELED,
  PaymentStatus.PAYMENT_STATUS_FAILED,
]);

export class PaymentsStandIn {
  readonly payments = new Map<string, paymentsV1.Payment>();
  /** Every call received, for tests that check what was (not) asked. */
  readonly calls: { method: 'getCheckoutPayment' | 'startAttempt'; paymentId: string; alias?: string }[] = [];
  /** While set, every call fails as payments being unreachable would. */
  unavailable = false;
  bankDelayMs = 300;
  /** checkout_url = this + the page path (id and token), as payments builds it from CHECKOUT_BASE_URL. */
  checkoutBaseUrl = 'http://checkout.invalid';
  private readonly bankAnswers: BankAnswer[] = [];
  private server: RunningGrpcServer | undefined;

  /** A new payment as payments would have created it; override any field. */
  add(fields: Partial<paymentsV1.Payment> = {}): paymentsV1.Payment {
    const id = fields.id ?? newId(ID_PREFIXES.payment);
    const payment: paymentsV1.Payment = {
      id,
      merchantId: 'mer_standin',
      livemode: false,
      status: PaymentStatus.PAYMENT_STATUS_CREATED,
      amount: 10_000n,
      merchantName: 'Boutique Adjoua',
      currency: 'XOF',
      mode: PaymentMode.PAYMENT_MODE_IMMEDIATE,
      reference: 'CMD-1042',
      description: 'Commande de test',
      checkoutUrl: `${this.checkoutBaseUrl}${pagePathOf(id)}`,
      returnUrl: 'https://shop.invalid/return',
      cancelUrl: 'https://shop.invalid/cancel',
      expiresAt: new Date(Date.now() + 5 * 60_000),
      createdAt: new Date(),
      metadata: {},
      attempts: [],
      ...fields,
    };
    this.payments.set(id, payment);
    return payment;
  }

  /** The merchant canceled, the deadline passed, ...: what payments' other paths would do. */
  setStatus(paymentId: string, status: paymentsV1.PaymentStatus): void {
    this.existing(paymentId).status = status;
  }

  async start(): Promise<string> {
    const implementation: Pick<paymentsV1.PaymentsServiceServer, 'getCheckoutPayment' | 'startAttempt'> = {
      getCheckoutPayment: unaryHandler(async ({ paymentId }: paymentsV1.GetCheckoutPaymentRequest) => {
        this.record('getCheckoutPayment', paymentId);
        this.settleBankAnswers();
        return { payment: this.existing(paymentId) };
      }),
      startAttempt: unaryHandler(async ({ paymentId, customerAlias }: paymentsV1.StartAttemptRequest) => {
        this.record('startAttempt', paymentId, customerAlias);
        return { payment: this.startAttempt(paymentId, customerAlias) };
      }),
    };
    this.server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: createLogger({ service: 'payments-stand-in', level: 'silent' }),
      services: [
        {
          definition: paymentsV1.PaymentsServiceService,
          implementation,
          callers: allowEveryMethod(paymentsV1.PaymentsServiceService, ['checkout-web']),
        },
      ],
      tls: (await testIdentity('payments')).tls,
    });
    return `127.0.0.1:${this.server.port}`;
  }

  async stop(): Promise<void> {
    await this.server?.shutdown(1_000);
  }

  private record(method: 'getCheckoutPayment' | 'startAttempt', paymentId: string, alias?: string): void {
    this.calls.push({ method, paymentId, ...(alias === undefined ? {} : { alias }) });
    if (this.unavailable) throw new AppError('service_unavailable', 'payments is down (stand-in).');
  }

  private existing(paymentId: string): paymentsV1.Payment {
    const payment = this.payments.get(paymentId);
    if (payment === undefined)
      throw new AppError('resource_missing', 'No such payment.', { param: 'payment_id' });
    return payment;
  }

  private startAttempt(paymentId: string, rawAlias: string): paymentsV1.Payment {
    const alias = normalisedAlias(rawAlias);
    this.settleBankAnswers();
    const payment = this.existing(paymentId);
    if (FINAL.has(payment.status) || payment.expiresAt === undefined || payment.expiresAt <= new Date()) {
      throw new AppError('payment_already_final', 'The payment no longer takes attempts.');
    }
    if (payment.attempts.length >= 5) {
      throw new AppError('too_many_attempts', 'A payment accepts at most 5 attempts.');
    }
    const attempt: paymentsV1.Attempt = {
      id: newId(ID_PREFIXES.attempt),
      txId: newId(ID_PREFIXES.attempt).slice(4),
      status: AttemptStatus.ATTEMPT_STATUS_SENT,
      payerAliasMasked: alias.replace(/\d(?=\d{2})/g, '*'),
      duplicate: false,
      createdAt: new Date(),
    };
    payment.attempts.push(attempt);
    if (alias === ALIASES.unknown) {
      attempt.status = AttemptStatus.ATTEMPT_STATUS_FAILED;
      attempt.failureCode = 'alias_unknown';
      throw new AppError('alias_unknown', 'The customer alias is unknown to the payment scheme.', {
        param: 'customer_alias',
      });
    }
    payment.status = PaymentStatus.PAYMENT_STATUS_REQUEST_SENT;
    payment.txId = attempt.txId;
    payment.payerAliasMasked = attempt.payerAliasMasked;
    const at = Date.now() + this.bankDelayMs;
    if (alias === ALIASES.pays) this.bankAnswers.push({ at, attempt, outcome: 'paid' });
    if (alias === ALIASES.refuses) this.bankAnswers.push({ at, attempt, outcome: 'refused' });
    return payment;
  }

  /** The bank's answers that are due: a refusal leaves the payment open for a new try (spec §3.2 rule 2). */
  private settleBankAnswers(): void {
    const now = Date.now();
    for (const answer of this.bankAnswers.filter(({ at }) => at <= now)) {
      this.bankAnswers.splice(this.bankAnswers.indexOf(answer), 1);
      const payment = [...this.payments.values()].find((each) => each.attempts.includes(answer.attempt));
      if (payment === undefined || FINAL.has(payment.status)) continue;
      if (answer.outcome === 'paid') {
        answer.attempt.status = AttemptStatus.ATTEMPT_STATUS_SUCCEEDED;
        payment.status = PaymentStatus.PAYMENT_STATUS_SUCCEEDED;
        payment.feeAmount = 100n;
        payment.netAmount = payment.amount - 100n;
      } else {
        answer.attempt.status = AttemptStatus.ATTEMPT_STATUS_DECLINED;
        answer.attempt.failureCode = 'payer_declined';
      }
    }
  }
}
