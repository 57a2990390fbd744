import { join } from 'node:path';

import { createHttpApp } from '@sika/platform';
import type { Logger, Metrics } from '@sika/platform';
import { staticAssets } from '@sika/web';
import type { Express } from 'express';
import { Gauge } from 'prom-client';

import { checkoutRoutes } from './checkout-routes';
import type { CheckoutUseCases } from './checkout-routes';
import type { EventStreams } from './event-streams';
import { htmlErrors, htmlNotFound } from './html-errors';

/** services/checkout-web/public, from src/transport/http (tests) and dist/transport/http (built) alike. */
const PUBLIC_DIRECTORY = join(__dirname, '..', '..', '..', 'public');

export interface CheckoutAppOptions {
  logger: Logger;
  metrics: Metrics;
  useCases: CheckoutUseCases;
  eventStreams: EventStreams;
  /** Proxies in front: how many X-Forwarded-For hops name the client's address (for the limits). */
  trustProxyHops: number;
}

/**
 * The hosted page on @sika/platform's HTTP app (request ids, access log, /healthz).
 * It is closed with HTML answers instead of finishHttpApp's JSON envelope: whoever reaches an unknown
 * path or an error here is a customer with a browser, not an API client.
 */
export function createCheckoutApp({
  logger,
  metrics,
  useCases,
  eventStreams,
  trustProxyHops,
}: CheckoutAppOptions): Express {
  const app = createHttpApp({ logger, metrics });
  app.set('trust proxy', trustProxyHops);
  new Gauge({
    name: 'checkout_event_streams_open',
    help: 'Waiting screens currently followed over server-sent events (each polls payments).',
    registers: [metrics.registry],
    collect() {
      this.set(eventStreams.size);
    },
  });
  app.use('/assets', staticAssets(PUBLIC_DIRECTORY));
  app.use(checkoutRoutes({ useCases, eventStreams }));
  app.use(htmlNotFound);
  app.use(htmlErrors(logger));
  return app;
}
