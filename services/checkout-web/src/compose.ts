import {
  type BasicOverrides,
  closing,
  type Component,
  grpcTls,
  HttpServer,
  limitsRedis,
  probesOn,
  Service,
  serviceBasics,
} from '@sika/platform';
import type { Redis } from 'ioredis';
import { Counter } from 'prom-client';

import { FollowCheckout } from './app/follow-checkout';
import { ShowCheckout } from './app/show-checkout';
import { SubmitAlias } from './app/submit-alias';
import type { Config } from './config';
import { createPaymentsClient } from './infra/payments-client';
import { RedisSubmissionLimiter } from './infra/redis-submission-limiter';
import { createCheckoutApp } from './transport/http/checkout-app';
import { EventStreams } from './transport/http/event-streams';

/** What tests replace: the logger they read, the clock of the submission windows, a Redis client of their own. */
export interface CheckoutOverrides extends BasicOverrides {
  redis?: Redis;
}

/** Config → the payments client and Redis → use cases → the hosted page over HTTP (with the probes). */
export function composeCheckout(config: Config, overrides: CheckoutOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('checkout-web', config, overrides);
  const payments = createPaymentsClient(config.PAYMENTS_GRPC_ADDRESS, config.GRPC_DEADLINE, grpcTls(config));
  const { redis, closing: redisClosing } = limitsRedis({
    url: config.REDIS_URL,
    commandTimeoutMs: config.REDIS_TIMEOUT,
    logger,
    given: overrides.redis,
  });
  const submissions = new RedisSubmissionLimiter({
    redis,
    policy: { limit: config.SUBMISSION_LIMIT, windowMs: config.SUBMISSION_WINDOW },
    clock,
    logger,
    failures: new Counter({
      name: 'checkout_submission_limiter_failures_total',
      help: 'Alias submissions let through without a limit check because Redis did not answer.',
      registers: [metrics.registry],
    }),
  });

  const tokenKey = config.CHECKOUT_TOKEN_KEY;
  const showCheckout = new ShowCheckout({ payments, clock, tokenKey });
  const useCases = {
    showCheckout,
    submitAlias: new SubmitAlias({ payments, showCheckout, submissions, tokenKey }),
    followCheckout: new FollowCheckout({
      payments,
      clock,
      logger,
      pollIntervalMs: config.SSE_POLL_INTERVAL,
      tokenKey,
    }),
  };
  const eventStreams = new EventStreams({
    maxDurationMs: config.SSE_MAX_DURATION,
    maxStreams: config.SSE_MAX_STREAMS,
    maxStreamsPerAddress: config.SSE_MAX_STREAMS_PER_ADDRESS,
  });
  const app = createCheckoutApp({
    logger,
    metrics,
    useCases,
    eventStreams,
    trustProxyHops: config.TRUST_PROXY_HOPS,
  });
  const http = new HttpServer(app, {
    host: config.HOST,
    port: config.HTTP_PORT,
    name: 'checkout-web',
    logger,
  });
  // Event streams never finish on their own: they end as soon as the server stops accepting, or the close
  // would wait for its whole grace period.
  const page: Component = {
    name: 'http server and event streams',
    start: () => http.start(),
    stop: async () => {
      const closed = http.stop();
      eventStreams.closeAll();
      await closed;
    },
  };

  const probes = probesOn({ config, logger, metrics, readiness: [] });
  const service = new Service(logger).add(
    probes,
    ...redisClosing,
    closing('payments client', () => payments.close()),
    page,
  );
  return Object.assign(service, { http, eventStreams, probes });
}

export type Checkout = ReturnType<typeof composeCheckout>;
