import {
  createLogger,
  createMetrics,
  installShutdown,
  parseConfigOrExit,
  runMain,
  startHttpServer,
  systemClock,
} from '@sika/platform';

import { FollowCheckout } from './app/follow-checkout';
import { ShowCheckout } from './app/show-checkout';
import { SubmitAlias } from './app/submit-alias';
import { configSchema } from './config';
import { createPaymentsClient } from './infra/payments-client';
import { createCheckoutApp } from './transport/http/checkout-app';
import { EventStreams } from './transport/http/event-streams';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'checkout-web', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'checkout-web' });

  const payments = createPaymentsClient(config.PAYMENTS_GRPC_ADDRESS, config.GRPC_DEADLINE);
  const showCheckout = new ShowCheckout({ payments, clock: systemClock });
  const useCases = {
    showCheckout,
    submitAlias: new SubmitAlias({ payments, showCheckout }),
    followCheckout: new FollowCheckout({
      payments,
      clock: systemClock,
      logger,
      pollIntervalMs: config.SSE_POLL_INTERVAL,
    }),
  };
  const eventStreams = new EventStreams(config.SSE_MAX_DURATION);

  const app = createCheckoutApp({ logger, metrics, useCases, eventStreams });
  const server = await startHttpServer(app, { host: config.HOST, port: config.HTTP_PORT });
  logger.info({ host: config.HOST, port: server.port }, 'checkout-web listening');

  installShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      {
        // Event streams never finish on their own: end them as soon as the server stops accepting, or the
        // close would wait for its grace period.
        name: 'http server and event streams',
        run: async () => {
          const closed = server.close(10_000);
          eventStreams.closeAll();
          await closed;
        },
      },
      { name: 'payments client', run: async () => payments.close() },
    ],
  });
}

void runMain('checkout-web', main);
