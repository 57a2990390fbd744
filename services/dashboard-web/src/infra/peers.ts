import { ledgerV1, merchantsV1, paymentsV1, payoutsV1, webhooksV1 } from '@sika/contracts';
import { payAtSimulator } from '@sika/pispi';
import { AppError, createGrpcClient, type GrpcTls } from '@sika/platform';
import {
  balanceTransactionType,
  paymentStatus,
  renderBalance,
  renderBalanceTransaction,
  renderPayment,
  renderPayout,
} from '@sika/public-api';
import { payoutRequestFingerprint, type PayoutAliasType, type PayoutSchedule } from '@sika/rules';

import type {
  AccountEmailKind,
  ActivationStatus,
  DeliveryStatus,
  MerchantSummary,
  PayoutAccountSummary,
  Peers,
  TestBank,
  WebhookEvent,
} from '../app/ports';

export interface PeerAddresses {
  merchants: string;
  payments: string;
  ledger: string;
  webhooks: string;
  payouts: string;
}

/** A field proto3 makes optional on the wire that the service always sets. */
function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`a service answered without ${what}`);
  return value;
}

const isMissing = (error: unknown): boolean => error instanceof AppError && error.code === 'resource_missing';

const DELIVERY_STATUSES: Readonly<Record<number, DeliveryStatus>> = {
  [webhooksV1.DeliveryStatus.DELIVERY_STATUS_PENDING]: 'pending',
  [webhooksV1.DeliveryStatus.DELIVERY_STATUS_DELIVERED]: 'delivered',
  [webhooksV1.DeliveryStatus.DELIVERY_STATUS_FAILED]: 'failed',
};

function eventOf(event: webhooksV1.Event | undefined): WebhookEvent {
  const { id, type, createdAt, payload, delivery } = required(event, 'an event');
  return {
    id,
    type,
    createdAt,
    payload,
    delivery:
      delivery === undefined
        ? undefined
        : {
            status: DELIVERY_STATUSES[delivery.status] ?? 'pending',
            attemptCount: delivery.attemptCount,
            nextAttemptAt: delivery.nextAttemptAt,
            deliveredAt: delivery.deliveredAt,
            attempts: delivery.attempts.map((attempt) => ({
              number: attempt.number,
              attemptedAt: attempt.attemptedAt,
              url: attempt.url,
              statusCode: attempt.statusCode,
              error: attempt.error,
              durationMs: attempt.durationMs,
            })),
          },
  };
}

const ACTIVATION_STATUSES: Readonly<Record<number, ActivationStatus>> = {
  [merchantsV1.ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW]: 'pending_review',
  [merchantsV1.ActivationStatus.ACTIVATION_STATUS_APPROVED]: 'approved',
};

function merchantOf(merchant: merchantsV1.Merchant | undefined): MerchantSummary {
  const { id, name, liveEnabled, activation } = required(merchant, 'a merchant');
  return {
    id,
    name,
    liveEnabled,
    activation:
      activation === undefined
        ? { status: 'not_requested', details: undefined }
        : {
            status: ACTIVATION_STATUSES[activation.status] ?? 'not_requested',
            details: {
              legalName: activation.legalName,
              registrationNumber: activation.registrationNumber,
              contactName: activation.contactName,
              contactEmail: activation.contactEmail,
              contactPhone: activation.contactPhone,
            },
          },
  };
}

const ALIAS_TYPES: Readonly<Record<number, PayoutAliasType>> = {
  [payoutsV1.AliasType.ALIAS_TYPE_PHONE]: 'phone',
  [payoutsV1.AliasType.ALIAS_TYPE_MERCHANT_CODE]: 'merchant_code',
  [payoutsV1.AliasType.ALIAS_TYPE_ACCOUNT_KEY]: 'account_key',
};

function payoutAccountOf(account: payoutsV1.PayoutAccount | undefined): PayoutAccountSummary {
  const { status, destination, defaultTestAccount } = required(account, 'a payout account');
  const { aliasType, aliasMasked, holderName } = required(destination, 'a destination');
  return {
    status:
      status === payoutsV1.PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_VERIFIED
        ? 'verified'
        : 'awaiting_confirmation',
    aliasType: required(ALIAS_TYPES[aliasType], 'a known alias type'),
    aliasMasked,
    holderName,
    defaultTestAccount,
  };
}

const EMAIL_KINDS: Readonly<Record<AccountEmailKind, merchantsV1.EmailKind>> = {
  welcome: merchantsV1.EmailKind.EMAIL_KIND_WELCOME,
  sign_up_attempt: merchantsV1.EmailKind.EMAIL_KIND_SIGN_UP_ATTEMPT,
  payout_account_set: merchantsV1.EmailKind.EMAIL_KIND_PAYOUT_ACCOUNT_SET,
  payout_account_confirmed: merchantsV1.EmailKind.EMAIL_KIND_PAYOUT_ACCOUNT_CONFIRMED,
  payout_account_cooling_down: merchantsV1.EmailKind.EMAIL_KIND_PAYOUT_ACCOUNT_COOLING_DOWN,
  secret_key_renewed: merchantsV1.EmailKind.EMAIL_KIND_SECRET_KEY_RENEWED,
  webhook_secret_revealed: merchantsV1.EmailKind.EMAIL_KIND_WEBHOOK_SECRET_REVEALED,
  webhook_secret_rolled: merchantsV1.EmailKind.EMAIL_KIND_WEBHOOK_SECRET_ROLLED,
};

const SCHEDULES: Readonly<Record<PayoutSchedule, payoutsV1.PayoutSchedule>> = {
  daily: payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_DAILY,
  manual: payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_MANUAL,
};

/**
 * The services over gRPC and mutual TLS, one client each with the same deadline (a page waits on a few
 * calls at once), mapped to the dashboard's own types: protobuf stops here.
 */
export function connectPeers(
  addresses: PeerAddresses,
  deadlineMs: number,
  tls: GrpcTls,
): Peers & { close(): void } {
  const options = { deadlineMs, tls };
  const clients = {
    merchants: createGrpcClient(merchantsV1.MerchantsServiceClient, addresses.merchants, options),
    payments: createGrpcClient(paymentsV1.PaymentsServiceClient, addresses.payments, options),
    ledger: createGrpcClient(ledgerV1.LedgerServiceClient, addresses.ledger, options),
    webhooks: createGrpcClient(webhooksV1.WebhooksServiceClient, addresses.webhooks, options),
    payouts: createGrpcClient(payoutsV1.PayoutsServiceClient, addresses.payouts, options),
  };
  const { merchants, payments, ledger, webhooks, payouts } = clients;
  const rollSecret: Peers['webhooks']['rollSecret'] = async (scope) =>
    required((await webhooks.rollEndpointSecret({ scope })).endpoint, 'an endpoint').secret;
  return {
    merchants: {
      async create(name) {
        const { merchant, testSecretKey } = await merchants.createMerchant({ name });
        return { merchantId: required(merchant, 'a merchant').id, testSecretKey };
      },
      get: async (merchantId) => merchantOf((await merchants.getMerchant({ merchantId })).merchant),
      async keys(merchantId) {
        const { keys } = await merchants.listSecretKeys({ merchantId });
        return keys.map(({ livemode, lastFour, createdAt, expiresAt }) => ({
          livemode,
          lastFour,
          createdAt,
          expiresAt,
        }));
      },
      renewKey: async (scope, expirePreviousAfterSeconds, notifyEmail) =>
        (await merchants.renewSecretKey({ ...scope, expirePreviousAfterSeconds, notifyEmail })).secretKey,
      requestActivation: async (merchantId, details) =>
        void (await merchants.requestActivation({ merchantId, ...details })),
      recordEmail: async (email) =>
        (
          await merchants.recordEmail({
            merchantId: email.merchantId,
            to: email.to,
            kind: EMAIL_KINDS[email.kind],
            livemode: email.livemode,
            sendAfterSeconds: email.sendAfterSeconds,
          })
        ).emailId,
      cancelEmail: async (emailId) => void (await merchants.cancelEmail({ emailId })),
    },
    payments: {
      async list(scope, filters, limit) {
        const answer = await payments.listPayments({
          scope,
          page: {
            limit,
            ...(filters.startingAfter !== undefined && { startingAfter: filters.startingAfter }),
          },
          status: filters.status === undefined ? 0 : (paymentStatus.fromPublic(filters.status) ?? 0),
          ...(filters.reference !== undefined && { reference: filters.reference }),
          ...(filters.createdFrom !== undefined && { createdFrom: filters.createdFrom }),
          ...(filters.createdTo !== undefined && { createdTo: filters.createdTo }),
        });
        return { items: answer.payments.map(renderPayment), hasMore: answer.hasMore };
      },
      get: async (scope, paymentId) =>
        renderPayment(required((await payments.getPayment({ scope, paymentId })).payment, 'a payment')),
      cancel: async (scope, paymentId) => void (await payments.cancelPayment({ scope, paymentId })),
    },
    ledger: {
      balance: async (scope) =>
        renderBalance(required((await ledger.getBalance({ scope })).balance, 'a balance')),
      async movements(scope, filters, limit) {
        const answer = await ledger.listBalanceTransactions({
          scope,
          page: {
            limit,
            ...(filters.startingAfter !== undefined && { startingAfter: filters.startingAfter }),
          },
          type: filters.type === undefined ? 0 : (balanceTransactionType.fromPublic(filters.type) ?? 0),
          ...(filters.createdFrom !== undefined && { createdFrom: filters.createdFrom }),
          ...(filters.createdTo !== undefined && { createdTo: filters.createdTo }),
        });
        return { items: answer.balanceTransactions.map(renderBalanceTransaction), hasMore: answer.hasMore };
      },
      async collections(scope, { from, to }) {
        const { days } = await ledger.summarizeCollections({ scope, from, to });
        return days.map(({ day, collected, fees, paymentCount }) => ({
          day,
          collected,
          fees,
          paymentCount: Number(paymentCount),
        }));
      },
    },
    payouts: {
      async account(scope) {
        const { account, schedule } = await payouts.getPayoutAccount({ scope });
        return {
          account: account === undefined ? undefined : payoutAccountOf(account),
          schedule: schedule === payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_MANUAL ? 'manual' : 'daily',
        };
      },
      setAccount: async (scope, alias) =>
        payoutAccountOf((await payouts.setPayoutAccount({ scope, alias })).account),
      confirmAccount: async (scope, holderName) =>
        payoutAccountOf((await payouts.confirmPayoutAccount({ scope, holderName })).account),
      setSchedule: async (scope, schedule) =>
        void (await payouts.setPayoutSchedule({ scope, schedule: SCHEDULES[schedule] })),
      async list(scope, page) {
        const answer = await payouts.listPayouts({ scope, page, status: 0 });
        return { items: answer.payouts.map(renderPayout), hasMore: answer.hasMore };
      },
      get: async (scope, payoutId) =>
        renderPayout(required((await payouts.getPayout({ scope, payoutId })).payout, 'a payout')),
      async create(scope, { amount, idempotencyKey }) {
        const { payout } = await payouts.createPayout({
          scope,
          idempotencyKey,
          requestFingerprint: payoutRequestFingerprint(amount),
          ...(amount !== undefined && { amount: BigInt(amount) }),
        });
        return renderPayout(required(payout, 'a payout'));
      },
    },
    webhooks: {
      async url(scope) {
        try {
          return required((await webhooks.getEndpoint({ scope })).endpoint, 'an endpoint').url;
        } catch (error) {
          if (isMissing(error)) return undefined;
          throw error;
        }
      },
      setUrl: async (scope, url) => void (await webhooks.setEndpoint({ scope, url })),
      async secret(scope) {
        try {
          return required((await webhooks.getEndpoint({ scope })).endpoint, 'an endpoint').secret;
        } catch (error) {
          if (!isMissing(error)) throw error;
          // The roll creates the mode's endpoint (without a URL) and its first secret.
          return rollSecret(scope);
        }
      },
      rollSecret,
      sendTestEvent: async (scope) => eventOf((await webhooks.sendTestEvent({ scope })).event).id,
      async events(scope, { objectId, ...page }) {
        const answer = await webhooks.listEvents({ scope, page, objectId });
        return { items: answer.events.map(eventOf), hasMore: answer.hasMore };
      },
      event: async (scope, eventId) => eventOf((await webhooks.getEvent({ scope, eventId })).event),
      resend: async (scope, eventId) => void (await webhooks.resendEvent({ scope, eventId })),
    },
    close: () => Object.values(clients).forEach((client) => client.close()),
  };
}

/** The simulator as test mode's bank; a refusal (nothing waiting, already paid) surfaces as an error page. */
export function simulatorTestBank(baseUrl: string, timeoutMs: number): TestBank {
  return { pay: async (txId) => void (await payAtSimulator(baseUrl, txId, timeoutMs)) };
}
