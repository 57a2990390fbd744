import {
  type BasicOverrides,
  closing,
  type Component,
  HttpServer,
  Service,
  serviceBasics,
} from '@sika/platform';

import { FollowCheckout } from './app/follow-checkout';
import { ShowCheckout } from './app/show-checkout';
import { SubmitAlias } from './app/submit-alias';
import type { Config } from './config';
import { createPaymentsClient } from './infra/payments-client';
import { createCheckoutApp } from './transport/http/checkout-app';
import { EventStreams } from './transport/http/event-streams';

/** What tests replace: the logger they read, the clock. */
export type CheckoutOverrides = BasicOverrides;

/** Config → the payments client → use cases → the hosted page over HTTP (with the probes). */
export function composeCheckout(config: Config, overrides: CheckoutOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('checkout-web', config, overrides);
  const payments = createPaymentsClient(config.PAYMENTS_GRPC_ADDRESS, config.GRPC_DEADLINE);

  const showCheckout = new ShowCheckout({ payments, clock });
  const useCases = {
    showCheckout,
    submitAlias: new SubmitAlias({ payments, showCheckout }),
    followCheckout: new FollowCheckout({ payments, clock, logger, pollIntervalMs: config.SSE_POLL_INTERVAL }),
  };
  const eventStreams = new EventStreams(config.SSE_MAX_DURATION);
  const app = createCheckoutApp({ logger, metrics, useCases, eventStreams });
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

  const service = new Service(logger).add(
    closing('payments client', () => payments.close()),
    page,
  );
  return Object.assign(service, { http, eventStreams });
}

export type Checkout = ReturnType<typeof composeCheckout>;
