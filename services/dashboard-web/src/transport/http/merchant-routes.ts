import { AppError, isId } from '@sika/platform';
import { Router } from 'express';

import type { Mode } from '../../domain/mode';
import { keyRoutes, type KeyUseCases } from './key-routes';
import { moneyRoutes, type MoneyUseCases } from './money-routes';
import { overviewRoutes, type OverviewUseCases } from './overview-routes';
import { paymentRoutes, type PaymentUseCases } from './payment-routes';
import type { CookieSettings } from './request-context';
import { sessionGuard, type SessionUseCases } from './session-guard';
import { webhookRoutes, type WebhookUseCases } from './webhook-routes';

export interface MerchantUseCases
  extends SessionUseCases, OverviewUseCases, KeyUseCases, WebhookUseCases, PaymentUseCases, MoneyUseCases {}

/** The pages of one mode (`/test/…` or `/live/…`): signed-in only; live ones only once live is enabled. */
export function merchantRoutes(
  mode: Mode,
  useCases: MerchantUseCases,
  cookies: CookieSettings,
  apiBaseUrl: string,
): Router {
  const router = Router();
  router.use(sessionGuard(mode, useCases, cookies));

  // A malformed id is a 404 before any call to a service, whatever the route.
  for (const [param, prefix] of [
    ['eventId', 'evt'],
    ['paymentId', 'pay'],
    ['payoutId', 'po'],
  ] as const) {
    router.param(param, (_request, _response, next, value: string) => {
      next(
        isId(prefix, value)
          ? undefined
          : new AppError('resource_missing', `No such id: '${value}'`, { param }),
      );
    });
  }

  overviewRoutes(router, useCases, apiBaseUrl);
  keyRoutes(router, useCases);
  webhookRoutes(router, mode, useCases);
  paymentRoutes(router, mode, useCases);
  moneyRoutes(router, mode, useCases);
  return router;
}
