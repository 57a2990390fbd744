import { isId } from '@sika/platform';
import { sendHtml } from '@sika/web';
import type { Request, Response, Router } from 'express';

import type { ConfirmPassword } from '../../app/confirm-password';
import type { ResendEvent } from '../../app/resend-event';
import type { RevealWebhookSecret } from '../../app/reveal-webhook-secret';
import type { RollWebhookSecret } from '../../app/roll-webhook-secret';
import type { SendTestEvent } from '../../app/send-test-event';
import type { SetWebhookUrl } from '../../app/set-webhook-url';
import type { ShowEvent } from '../../app/show-event';
import type { ShowWebhooks } from '../../app/show-webhooks';
import type { Mode } from '../../domain/mode';
import { renderEvent, renderWebhooks, type WebhooksPageState } from '../../views/webhook-pages';
import { confirmed, formEcho, formText, orRefusal } from './forms';
import { requireRecentAuthentication } from './recent-authentication';
import { pageContext } from './request-context';
import { doneOf, signedOf } from './signed';

export interface WebhookUseCases {
  confirmPassword: ConfirmPassword;
  showWebhooks: ShowWebhooks;
  setWebhookUrl: SetWebhookUrl;
  revealWebhookSecret: RevealWebhookSecret;
  rollWebhookSecret: RollWebhookSecret;
  sendTestEvent: SendTestEvent;
  showEvent: ShowEvent;
  resendEvent: ResendEvent;
}

const EVENTS_PAGE_SIZE = 20;

/** The webhook endpoint, its secret and its events, on the router of one mode (already signed in and unlocked). */
export function webhookRoutes(router: Router, mode: Mode, useCases: WebhookUseCases): void {
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
    await orRefusal(
      request,
      response,
      async () => {
        await useCases.setWebhookUrl.execute(scope, formText(request, 'url'));
        response.redirect(303, `/${mode}/webhooks?done=saved`);
      },
      ({ problem, status }) =>
        webhooksPage(request, response, status, { problem: { ...problem, param: 'url' }, urlValue: url }),
    );
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
    await orRefusal(
      request,
      response,
      async () => {
        const eventId = await useCases.sendTestEvent.execute(scope);
        response.redirect(303, `/${mode}/webhooks/events/${eventId}?done=test_sent`);
      },
      ({ problem, status }) => webhooksPage(request, response, status, { problem }),
    );
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
}
