import { join } from 'node:path';

import { createHttpApp, type Logger, type Metrics } from '@sika/platform';
import { setHtmlHeaders, staticAssets } from '@sika/web';
import express, { type Express } from 'express';

import { accountRoutes, type AccountUseCases } from './account-routes';
import { htmlErrors, htmlNotFound } from './html-errors';
import { merchantRoutes, type MerchantUseCases } from './merchant-routes';
import { requestContext, type CookieSettings } from './request-context';

/** services/dashboard-web/public, from src/transport/http (tests) and dist/transport/http (built) alike. */
const PUBLIC_DIRECTORY = join(__dirname, '..', '..', '..', 'public');

export interface DashboardAppOptions {
  logger: Logger;
  metrics: Metrics;
  useCases: AccountUseCases & MerchantUseCases;
  cookies: CookieSettings;
  /** The expiry of a new session's cookie (the server also ends idle sessions sooner). */
  sessionCookieExpiry: () => Date;
  apiBaseUrl: string;
  trustProxyHops: number;
}

/**
 * The dashboard on @sika/platform's HTTP app (request ids, access log, /healthz), closed with HTML
 * answers: whoever reaches it is a person with a browser.
 */
export function createDashboardApp(options: DashboardAppOptions): Express {
  const { logger, metrics, useCases, cookies } = options;
  const app = createHttpApp({ logger, metrics });
  app.set('trust proxy', options.trustProxyHops);
  app.use('/assets', staticAssets(PUBLIC_DIRECTORY));
  app.use(express.urlencoded({ extended: false, limit: '16kb', inflate: false }));
  app.use((_request, response, next) => {
    setHtmlHeaders(response);
    next();
  });
  app.use(requestContext(cookies));
  app.use(accountRoutes(useCases, cookies, options.sessionCookieExpiry));
  app.use('/test', merchantRoutes('test', useCases, cookies, options.apiBaseUrl));
  app.use('/live', merchantRoutes('live', useCases, cookies, options.apiBaseUrl));
  app.use(htmlNotFound);
  app.use(htmlErrors(logger));
  return app;
}
