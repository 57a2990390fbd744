import { clientSubjectOf, requestIdOf } from '@sika/platform';
import { isSameOriginRequest, sendHtml } from '@sika/web';
import express, { Router } from 'express';
import type { Request, Response } from 'express';

import type { FollowCheckout } from '../../app/follow-checkout';
import type { CheckoutView, ShowCheckout } from '../../app/show-checkout';
import type { AliasProblem, SubmitAlias } from '../../app/submit-alias';
import type { CheckoutLink } from '../../domain/checkout-link';
import { screenKey } from '../../domain/screen';
import { webOriginOf, webUrlOrNull } from '../../domain/web-url';
import {
  checkoutPaths,
  renderAliasForm,
  renderOutcome,
  renderPaid,
  renderWaiting,
} from '../../views/checkout-pages';
import type { Copy } from '../../views/copy';
import { renderErrorPage } from '../../views/error-pages';
import type { EventStreams } from './event-streams';
import { copyFor } from './language';

export interface CheckoutUseCases {
  showCheckout: ShowCheckout;
  submitAlias: SubmitAlias;
  followCheckout: FollowCheckout;
}

export interface CheckoutRoutesOptions {
  useCases: CheckoutUseCases;
  eventStreams: EventStreams;
}

/** How long a browser waits before reconnecting a dropped event stream. */
const EVENT_STREAM_RETRY_MS = 2_000;
/** A comment line now and then keeps proxies from closing an idle stream. */
const EVENT_STREAM_HEARTBEAT_MS = 15_000;
/** Retry-After of a refused event stream; the page reloads itself after about as long. */
const EVENT_STREAM_BUSY_RETRY_SECONDS = 5;

const PROBLEM_STATUS: Record<AliasProblem, number> = {
  alias_missing: 400,
  alias_invalid: 400,
  alias_unknown: 422,
  too_many_attempts: 409,
  unavailable: 503,
};

function formTargetsOf({ payment }: CheckoutView): string[] {
  const origin = webOriginOf(payment.returnUrl);
  return origin === null ? [] : [origin];
}

/** The payment and token of the link the route was reached by. */
function linkOf(request: Request<{ paymentId: string; token: string }>): CheckoutLink {
  return { paymentId: request.params.paymentId, token: request.params.token };
}

/**
 * What the per-address limits count: the socket's address, or the client's as TRUST_PROXY_HOPS proxies report
 * it (express `trust proxy`), an IPv6 address by its /64.
 */
function clientAddressOf(request: Request): string {
  return clientSubjectOf(request.ip ?? 'unknown');
}

function renderView(response: Response, view: CheckoutView, link: CheckoutLink, copy: Copy): void {
  const { payment, screen } = view;
  const options = { formTargets: formTargetsOf(view) };
  switch (screen.kind) {
    case 'alias_form':
      sendHtml(response, 200, renderAliasForm(payment, link, { notice: screen.notice }, copy), options);
      return;
    case 'waiting':
      sendHtml(response, 200, renderWaiting(payment, link, screen.stage, copy), options);
      return;
    case 'paid': {
      // The customer is done here: back to the merchant, who confirms by webhook or by reading the payment.
      const returnUrl = webUrlOrNull(payment.returnUrl);
      if (returnUrl !== null) response.redirect(303, returnUrl);
      else sendHtml(response, 200, renderPaid(payment, link, copy), options);
      return;
    }
    case 'outcome':
      sendHtml(response, 200, renderOutcome(payment, link, screen.outcome, copy), options);
      return;
  }
}

function aliasFrom(request: Request): string {
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null) return '';
  const value: unknown = (body as Record<string, unknown>)['customer_alias'];
  return typeof value === 'string' ? value : '';
}

/** Headers of an event stream, and how soon the browser reconnects when it ends. */
function openEventStream(response: Response): void {
  response.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // nginx (ingress) buffers responses by default, which would hold events back.
    'X-Accel-Buffering': 'no',
  });
  response.flushHeaders();
  response.write(`retry: ${EVENT_STREAM_RETRY_MS}\n\n`);
}

/** Text of one server-sent event. JSON.stringify never emits a raw newline, so `data` stays one line. */
function serverSentEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The hosted page: GET /pay/:paymentId/:token, its alias form POST, and its live status stream. Every route
 * carries the link's token and the use cases check it before anything else: a bare payment id, or any other
 * path, is the HTML 404.
 */
export function checkoutRoutes({ useCases, eventStreams }: CheckoutRoutesOptions): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });

  router.get('/pay/:paymentId/:token', async (request, response) => {
    const copy = copyFor(request, response);
    const link = linkOf(request);
    renderView(response, await useCases.showCheckout.execute(link), link, copy);
  });

  router.post('/pay/:paymentId/:token/attempts', (request, response, next) => {
    if (isSameOriginRequest(request)) {
      next();
      return;
    }
    response.locals['errorCode'] = 'cross_origin_form';
    sendHtml(response, 403, renderErrorPage('forbidden', requestIdOf(response), copyFor(request, response)));
  });
  router.post('/pay/:paymentId/:token/attempts', form, async (request, response) => {
    const link = linkOf(request);
    const enteredAlias = aliasFrom(request);
    const result = await useCases.submitAlias.execute(link, enteredAlias, clientAddressOf(request));
    if (result.kind === 'limited') {
      response.locals['errorCode'] = 'too_many_submissions';
      response.set('Retry-After', String(result.retryAfterSeconds));
      const page = renderErrorPage('too_many_submissions', requestIdOf(response), copyFor(request, response));
      sendHtml(response, 429, page);
      return;
    }
    if (result.kind !== 'rejected') {
      // Post/redirect/get: the page shows the waiting screen (or whatever the payment became), and a reload
      // does not submit the alias twice.
      response.redirect(303, checkoutPaths.page(link));
      return;
    }
    const { problem, view } = result;
    response.locals['errorCode'] = problem;
    const options = { formTargets: formTargetsOf(view) };
    const copy = copyFor(request, response);
    // Out of attempts, a form would only invite a useless retry: the page says so and offers the way back.
    const body =
      problem === 'too_many_attempts'
        ? renderOutcome(view.payment, link, 'attempts_exhausted', copy)
        : renderAliasForm(view.payment, link, { problem, enteredAlias }, copy);
    sendHtml(response, PROBLEM_STATUS[problem], body, options);
  });

  router.get('/pay/:paymentId/:token/events', async (request, response) => {
    const signal = eventStreams.attach(response, clientAddressOf(request));
    if (signal === 'stopping') {
      // Stopping: an empty stream makes the browser reconnect shortly, to a replica that is not stopping.
      openEventStream(response);
      response.end();
      return;
    }
    if (signal === 'busy') {
      // An error answer ends EventSource for good: the page's script then reloads the page now and then,
      // which follows the payment as well at the cost of one read per reload.
      response.locals['errorCode'] = 'event_streams_busy';
      response.set('Retry-After', String(EVENT_STREAM_BUSY_RETRY_SECONDS));
      const page = renderErrorPage('unavailable', requestIdOf(response), copyFor(request, response));
      sendHtml(response, 503, page);
      return;
    }
    const updates = useCases.followCheckout.updates(linkOf(request), signal);
    // The first read decides between a stream and an error page (unknown payment, payments down).
    const first = await updates.next();
    openEventStream(response);
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), EVENT_STREAM_HEARTBEAT_MS);
    try {
      let next = first;
      while (next.done !== true) {
        const { status, screen } = next.value;
        response.write(serverSentEvent('status', { status, screen: screenKey(screen) }));
        next = await updates.next();
      }
    } finally {
      clearInterval(heartbeat);
      response.end();
    }
  });

  return router;
}
