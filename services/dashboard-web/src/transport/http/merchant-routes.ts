import { AppError, isId } from '@sika/platform';
import { paymentStatus } from '@sika/public-api';
import { sendHtml } from '@sika/web';
import { Router, type NextFunction, type Request, type Response } from 'express';

import type { CancelPayment } from '../../app/cancel-payment';
import type { CurrentSession } from '../../app/current-session';
import type { GetMerchant } from '../../app/get-merchant';
import type { ListPayments } from '../../app/list-payments';
import type { RenewSecretKey } from '../../app/renew-secret-key';
import type { ResendEvent } from '../../app/resend-event';
import type { RevealWebhookSecret } from '../../app/reveal-webhook-secret';
import type { RollWebhookSecret } from '../../app/roll-webhook-secret';
import { scopeOf, type Scope } from '../../app/scope';
import type { SendTestEvent } from '../../app/send-test-event';
import type { SetWebhookUrl } from '../../app/set-webhook-url';
import type { ShowEvent } from '../../app/show-event';
import type { ShowKeys } from '../../app/show-keys';
import type { ShowOverview } from '../../app/show-overview';
import type { ShowPayment } from '../../app/show-payment';
import type { ShowWebhooks } from '../../app/show-webhooks';
import type { SimulateCustomerPayment } from '../../app/simulate-customer-payment';
import { parseListFilters, type ListFilters } from '../../domain/list-filters';
import { livemodeOf, otherMode, type Mode } from '../../domain/mode';
import { sectionPath } from '../../views/layout';
import { renderKeys, renderLiveLocked, renderOverview } from '../../views/merchant-pages';
import { renderPayment, renderPayments } from '../../views/payment-pages';
import { renderEvent, renderWebhooks, type WebhooksPageState } from '../../views/webhook-pages';
import { confirmed, fieldProblemOf, formEcho, formText } from './forms';
import { moneyRoutes, type MoneyUseCases } from './money-routes';
import { requireRecentAuthentication } from './recent-authentication';
import { pageContext, sessionTokenOf, type CookieSettings } from './request-context';
import { doneOf, signedOf, type Done, type Signed } from './signed';

export interface MerchantUseCases extends MoneyUseCases {
  currentSession: CurrentSession;
  getMerchant: GetMerchant;
  showOverview: ShowOverview;
  showKeys: ShowKeys;
  renewSecretKey: RenewSecretKey;
  showWebhooks: ShowWebhooks;
  setWebhookUrl: SetWebhookUrl;
  revealWebhookSecret: RevealWebhookSecret;
  rollWebhookSecret: RollWebhookSecret;
  sendTestEvent: SendTestEvent;
  showEvent: ShowEvent;
  resendEvent: ResendEvent;
  listPayments: ListPayments;
  showPayment: ShowPayment;
  cancelPayment: CancelPayment;
  simulateCustomerPayment: SimulateCustomerPayment;
}

const EVENTS_PAGE_SIZE = 20;

/**
 * Only the activation request opens before live does: a live payout account's registration asks the participant
 * bank for the holder's name, which must wait for an operator's check of the business (anyone can sign up).
 */
const OPEN_BEFORE_LIVE = /^\/activate\/?$/;

/** The pages of one mode (`/test/…` or `/live/…`): signed-in only; live ones only once live is enabled. */
export function merchantRoutes(
  mode: Mode,
  useCases: MerchantUseCases,
  cookies: CookieSettings,
  apiBaseUrl: string,
): Router {
  const router = Router();
  const livemode = livemodeOf(mode);

  router.use(async (request: Request, response: Response, next: NextFunction) => {
    const sessionToken = sessionTokenOf(request, cookies);
    const session = await useCases.currentSession.execute(sessionToken);
    if (sessionToken === undefined || session === undefined) return response.redirect(303, '/signin');
    const { user, recentlyAuthenticated } = session;
    const merchant = await useCases.getMerchant.execute(user.merchantId);
    const page = pageContext(request, response);
    const signed: Signed = {
      scope: scopeOf(user, livemode),
      user,
      sessionToken,
      recentlyAuthenticated,
      context: (section) => ({
        ...page,
        merchantName: merchant.name,
        mode,
        liveEnabled: merchant.liveEnabled,
        otherModeHref: `/${otherMode(mode)}${sectionPath(section)}`,
        section,
      }),
    };
    response.locals['signed'] = signed;
    if (livemode && !merchant.liveEnabled && !OPEN_BEFORE_LIVE.test(request.path)) {
      return sendHtml(
        response,
        request.method === 'GET' ? 200 : 403,
        renderLiveLocked(signed.context('overview')),
      );
    }
    next();
  });

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

  router.get('/', async (_request, response) => {
    const { scope, context } = signedOf(response);
    sendHtml(
      response,
      200,
      renderOverview(context('overview'), await useCases.showOverview.execute(scope), apiBaseUrl),
    );
  });

  router.get('/keys', async (_request, response) => {
    const { scope, context } = signedOf(response);
    sendHtml(response, 200, renderKeys(context('keys'), await useCases.showKeys.execute(scope)));
  });

  router.post(
    '/keys/renew',
    requireRecentAuthentication(useCases.confirmPassword, 'keys'),
    async (request, response) => {
      const { scope, context } = signedOf(response);
      try {
        const newKey = await useCases.renewSecretKey.execute(
          scope,
          signedOf(response).user,
          confirmed(request),
          formText(request, 'expire_previous'),
        );
        sendHtml(
          response,
          200,
          renderKeys(context('keys'), await useCases.showKeys.execute(scope), { newKey }),
        );
      } catch (error) {
        const refusal = fieldProblemOf(error, pageContext(request, response).copy);
        if (refusal === undefined) throw error;
        const key = await useCases.showKeys.execute(scope);
        const { copy } = pageContext(request, response);
        const problem =
          refusal.problem.param === 'confirm'
            ? { param: 'confirm', message: copy.keys.confirm }
            : refusal.problem;
        sendHtml(response, refusal.status, renderKeys(context('keys'), key, { problem }));
      }
    },
  );

  const webhooksPage = async (
    request: Request,
    response: Response,
    status: number,
    state: WebhooksPageState,
  ) => {
    const { scope, context } = signedOf(response);
    const startingAfter =
      typeof request.query['starting_after'] === 'string' ? request.query['starting_after'] : undefined;
    const view = await useCases.showWebhooks.execute(scope, {
      limit: EVENTS_PAGE_SIZE,
      ...(startingAfter !== undefined && isId('evt', startingAfter) && { startingAfter }),
    });
    const last = view.events.at(-1);
    const nextHref =
      view.hasMore && last !== undefined ? `/${mode}/webhooks?starting_after=${last.id}` : undefined;
    sendHtml(response, status, renderWebhooks(context('webhooks'), view, state, nextHref));
  };

  router.get('/webhooks', async (request, response) => {
    const { copy } = pageContext(request, response);
    const done = doneOf(request);
    const notice = done === 'saved' ? copy.webhooks.saved : undefined;
    await webhooksPage(request, response, 200, notice === undefined ? {} : { notice });
  });

  router.post('/webhooks/url', async (request, response) => {
    const { scope } = signedOf(response);
    const url = formEcho(request, 'url');
    try {
      await useCases.setWebhookUrl.execute(scope, formText(request, 'url'));
      response.redirect(303, `/${mode}/webhooks?done=saved`);
    } catch (error) {
      const refusal = fieldProblemOf(error, pageContext(request, response).copy);
      if (refusal === undefined) throw error;
      await webhooksPage(request, response, refusal.status, {
        problem: { ...refusal.problem, param: 'url' },
        urlValue: url,
      });
    }
  });

  router.post(
    '/webhooks/secret',
    requireRecentAuthentication(useCases.confirmPassword, 'webhooks'),
    async (request, response) => {
      const { scope } = signedOf(response);
      const { copy } = pageContext(request, response);
      const value = await useCases.revealWebhookSecret.execute(scope, signedOf(response).user);
      await webhooksPage(request, response, 200, {
        secret: { title: copy.webhooks.secretTitle, value, hint: copy.webhooks.secretHint },
      });
    },
  );

  router.post(
    '/webhooks/secret/roll',
    requireRecentAuthentication(useCases.confirmPassword, 'webhooks'),
    async (request, response) => {
      const { scope } = signedOf(response);
      const { copy } = pageContext(request, response);
      if (!confirmed(request)) {
        return webhooksPage(request, response, 400, {
          problem: { param: 'confirm', message: copy.webhooks.rollConfirm },
        });
      }
      const value = await useCases.rollWebhookSecret.execute(scope, signedOf(response).user);
      await webhooksPage(request, response, 200, {
        secret: { title: copy.webhooks.newSecretTitle, value, hint: copy.webhooks.newSecretHint },
      });
    },
  );

  router.post('/webhooks/test', async (request, response) => {
    const { scope } = signedOf(response);
    try {
      const eventId = await useCases.sendTestEvent.execute(scope);
      response.redirect(303, `/${mode}/webhooks/events/${eventId}?done=test_sent`);
    } catch (error) {
      const refusal = fieldProblemOf(error, pageContext(request, response).copy);
      if (refusal === undefined) throw error;
      await webhooksPage(request, response, refusal.status, { problem: refusal.problem });
    }
  });

  router.get('/webhooks/events/:eventId', async (request, response) => {
    const { eventId } = request.params;
    const { scope, context } = signedOf(response);
    const { copy } = pageContext(request, response);
    const done = doneOf(request);
    const notice =
      done === 'test_sent'
        ? copy.webhooks.testSent(eventId)
        : done === 'resent'
          ? copy.webhooks.resent
          : undefined;
    sendHtml(
      response,
      200,
      renderEvent(context('webhooks'), await useCases.showEvent.execute(scope, eventId), notice),
    );
  });

  router.post('/webhooks/events/:eventId/resend', async (request, response) => {
    const { eventId } = request.params;
    await useCases.resendEvent.execute(signedOf(response).scope, eventId);
    response.redirect(303, `/${mode}/webhooks/events/${eventId}?done=resent`);
  });

  router.get('/payments', async (request, response) => {
    const { scope, context } = signedOf(response);
    const query = new URLSearchParams();
    for (const name of ['status', 'reference', 'created_from', 'created_to', 'starting_after']) {
      const value = request.query[name];
      if (typeof value === 'string' && value.length > 0) query.set(name, value);
    }
    let filters: ListFilters;
    try {
      filters = parseListFilters(
        request.query as Record<string, unknown>,
        { param: 'status', values: paymentStatus.names },
        /^pay_[A-Za-z0-9]+$/,
      );
    } catch (error) {
      const refusal = fieldProblemOf(error, pageContext(request, response).copy);
      if (refusal === undefined) throw error;
      const page = { items: [], hasMore: false };
      return sendHtml(
        response,
        refusal.status,
        renderPayments(context('payments'), page, {}, { problem: refusal.problem, query }),
      );
    }
    const page = await useCases.listPayments.execute(scope, filters);
    sendHtml(response, 200, renderPayments(context('payments'), page, filters, { query }));
  });

  router.get('/payments/:paymentId', async (request, response) => {
    const { paymentId } = request.params;
    const { scope, context } = signedOf(response);
    const { copy } = pageContext(request, response);
    const done = doneOf(request);
    const notice =
      done === 'canceled'
        ? copy.payments.canceled
        : done === 'simulated'
          ? copy.payments.simulated
          : undefined;
    sendHtml(
      response,
      200,
      renderPayment(context('payments'), await useCases.showPayment.execute(scope, paymentId), notice),
    );
  });

  const paymentAction =
    (act: (scope: Scope, paymentId: string) => Promise<void>, done: Done) =>
    async (request: Request<{ paymentId: string }>, response: Response) => {
      const { paymentId } = request.params;
      const { scope, context } = signedOf(response);
      try {
        await act(scope, paymentId);
        response.redirect(303, `/${mode}/payments/${paymentId}?done=${done}`);
      } catch (error) {
        const refusal = fieldProblemOf(error, pageContext(request, response).copy);
        if (refusal === undefined) throw error;
        const view = await useCases.showPayment.execute(scope, paymentId);
        sendHtml(
          response,
          refusal.status,
          renderPayment(context('payments'), view, undefined, refusal.problem),
        );
      }
    };

  router.post(
    '/payments/:paymentId/cancel',
    paymentAction((scope, id) => useCases.cancelPayment.execute(scope, id), 'canceled'),
  );
  router.post(
    '/payments/:paymentId/simulate',
    paymentAction((scope, id) => useCases.simulateCustomerPayment.execute(scope, id), 'simulated'),
  );

  moneyRoutes(router, mode, useCases);
  return router;
}
