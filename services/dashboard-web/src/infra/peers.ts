import { ledgerV1, merchantsV1, paymentsV1, webhooksV1 } from '@sika/contracts';
import { payAtSimulator } from '@sika/pispi';
import { AppError, createGrpcClient } from '@sika/platform';
import { paymentStatus, renderBalance, renderPayment } from '@sika/public-api';

import type { DeliveryStatus, Peers, TestBank, WebhookEvent } from '../app/ports';

export interface PeerAddresses {
  merchants: string;
  payments: string;
  ledger: string;
  webhooks: string;
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

/**
 * The services over gRPC, one client each with the same deadline (a page waits on a few calls at once),
 * mapped to the dashboard's own types: protobuf stops here.
 */
export function connectPeers(addresses: PeerAddresses, deadlineMs: number): Peers & { close(): void } {
  const options = { deadlineMs };
  const clients = {
    merchants: createGrpcClient(merchantsV1.MerchantsServiceClient, addresses.merchants, options),
    payments: createGrpcClient(paymentsV1.PaymentsServiceClient, addresses.payments, options),
    ledger: createGrpcClient(ledgerV1.LedgerServiceClient, addresses.ledger, options),
    webhooks: createGrpcClient(webhooksV1.WebhooksServiceClient, addresses.webhooks, options),
  };
  const { merchants, payments, ledger, webhooks } = clients;
  const rollSecret: Peers['webhooks']['rollSecret'] = async (scope) =>
    required((await webhooks.rollEndpointSecret({ scope })).endpoint, 'an endpoint').secret;
  return {
    merchants: {
      async create(name) {
        const { merchant, testSecretKey } = await merchants.createMerchant({ name });
        return { merchantId: required(merchant, 'a merchant').id, testSecretKey };
      },
      async get(merchantId) {
        const { id, name, liveEnabled } = required(
          (await merchants.getMerchant({ merchantId })).merchant,
          'a merchant',
        );
        return { id, name, liveEnabled };
      },
      async keys(merchantId) {
        const { keys } = await merchants.listSecretKeys({ merchantId });
        return keys.map(({ livemode, lastFour, createdAt }) => ({ livemode, lastFour, createdAt }));
      },
      renewKey: async (scope) => (await merchants.renewSecretKey(scope)).secretKey,
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
      async events(scope, page) {
        const answer = await webhooks.listEvents({ scope, page });
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
