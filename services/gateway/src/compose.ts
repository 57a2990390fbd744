import {
  type BasicOverrides,
  closing,
  grpcTls,
  HttpServer,
  limitsRedis,
  probesOn,
  Service,
  serviceBasics,
  RecentAnswers,
  systemClock,
} from '@sika/platform';
import type { Redis } from 'ioredis';
import { Counter } from 'prom-client';

import { AuthenticateKey } from './app/authenticate-key';
import { CancelPayment } from './app/cancel-payment';
import { CreatePayment } from './app/create-payment';
import { ExpirePaymentNow } from './app/expire-payment-now';
import { ListBalanceTransactions } from './app/list-balance-transactions';
import { ListEvents } from './app/list-events';
import { ListPayments } from './app/list-payments';
import { PayPaymentNow } from './app/pay-payment-now';
import { RetrieveBalance } from './app/retrieve-balance';
import { RetrieveEvent } from './app/retrieve-event';
import { RetrievePayment } from './app/retrieve-payment';
import type { Config } from './config';
import { connectPeers } from './infra/grpc-peers';
import { CreatePayout } from './app/create-payout';
import { ListPayouts } from './app/list-payouts';
import { RetrievePayout } from './app/retrieve-payout';
import { RedisAuthFailureLimiter } from './infra/redis-auth-failure-limiter';
import { RedisRateLimiter } from './infra/redis-rate-limiter';
import { simulatorTestBank } from './infra/simulator-test-bank';
import { createGatewayApp } from './transport/http/gateway-app';

/**
 * What tests replace: the logger they read, the clock of the rate limiters' windows and of the key cache (expiry bounds are always
 * measured on the system clock), a Redis client of their own.
 */
export interface GatewayOverrides extends BasicOverrides {
  redis?: Redis;
}

/**
 * Config → Redis and the services behind → use cases → the public API over HTTP (with the probes). Stops in
 * reverse: the HTTP server lets requests in flight finish, then the gRPC clients and Redis close.
 */
export function composeGateway(config: Config, overrides: GatewayOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('gateway', config, overrides);

  const { redis, closing: redisClosing } = limitsRedis({
    url: config.REDIS_URL,
    commandTimeoutMs: config.RATE_LIMIT_REDIS_TIMEOUT,
    logger,
    given: overrides.redis,
  });
  const peers = connectPeers(
    {
      merchants: config.MERCHANTS_GRPC_ADDRESS,
      payments: config.PAYMENTS_GRPC_ADDRESS,
      ledger: config.LEDGER_GRPC_ADDRESS,
      payouts: config.PAYOUTS_GRPC_ADDRESS,
      webhooks: config.WEBHOOKS_GRPC_ADDRESS,
    },
    config.GRPC_DEADLINE,
    grpcTls(config),
  );
  const rateLimits = {
    test: { limit: config.RATE_LIMIT_TEST, windowMs: config.RATE_LIMIT_WINDOW },
    live: { limit: config.RATE_LIMIT_LIVE, windowMs: config.RATE_LIMIT_WINDOW },
  };
  const rateLimiter = new RedisRateLimiter({
    redis,
    policies: rateLimits,
    clock,
    logger,
    failures: new Counter({
      name: 'gateway_rate_limiter_failures_total',
      help: 'Requests let through without a rate-limit check because Redis did not answer.',
      registers: [metrics.registry],
    }),
  });
  const authFailureLimit = { limit: config.AUTH_FAILURE_LIMIT, windowMs: config.AUTH_FAILURE_WINDOW };
  const authFailures = new RedisAuthFailureLimiter({
    redis,
    policy: authFailureLimit,
    clock,
    logger,
    failures: new Counter({
      name: 'gateway_auth_failure_limiter_failures_total',
      help: 'Authentication checks or failures left uncounted because Redis did not answer.',
      registers: [metrics.registry],
    }),
  });
  const { merchants, payments, ledger, payouts, events } = peers;
  const app = createGatewayApp({
    logger,
    metrics,
    clock: systemClock,
    useCases: {
      authenticateKey: new AuthenticateKey({
        merchants,
        failures: authFailures,
        recentKeys: new RecentAnswers({
          ttlMs: config.KEY_CACHE_TTL,
          maxEntries: 100_000,
          clock,
        }),
      }),
      createPayment: new CreatePayment({ payments }),
      listPayments: new ListPayments({ payments }),
      retrievePayment: new RetrievePayment({ payments }),
      cancelPayment: new CancelPayment({ payments }),
      retrieveBalance: new RetrieveBalance({ ledger }),
      listBalanceTransactions: new ListBalanceTransactions({ ledger }),
      createPayout: new CreatePayout({ payouts }),
      listPayouts: new ListPayouts({ payouts }),
      retrievePayout: new RetrievePayout({ payouts }),
      payPaymentNow: new PayPaymentNow({
        payments,
        testBank:
          config.SIMULATOR_URL === undefined
            ? undefined
            : simulatorTestBank(config.SIMULATOR_URL, config.GRPC_DEADLINE),
      }),
      expirePaymentNow: new ExpirePaymentNow({ payments }),
      listEvents: new ListEvents({ events }),
      retrieveEvent: new RetrieveEvent({ events }),
    },
    rateLimiter,
    rateLimits,
    authFailureLimit,
    trustProxyHops: config.TRUST_PROXY_HOPS,
    ...(config.PUBLIC_BASE_URL !== undefined && { publicBaseUrl: config.PUBLIC_BASE_URL }),
  });
  const http = new HttpServer(app, { host: config.HOST, port: config.HTTP_PORT, name: 'gateway', logger });
  // No readiness check: without Redis the limits fail open, and the services behind answer for themselves.
  const probes = probesOn({ config, logger, metrics, readiness: [] });

  const service = new Service(logger).add(
    probes,
    ...redisClosing,
    closing('grpc clients', () => peers.close()),
    http,
  );
  return Object.assign(service, { http, probes });
}

export type Gateway = ReturnType<typeof composeGateway>;
