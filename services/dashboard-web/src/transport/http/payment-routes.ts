import type { Scope } from '@sika/platform/pure';
import { paymentStatus } from '@sika/public-api';
import { sendHtml } from '@sika/web';
import type { Request, Response, Router } from 'express';

import type { CancelPayment } from '../../app/cancel-payment';
import type { ListPayments } from '../../app/list-payments';
import type { ShowPayment } from '../../app/show-payment';
import type { SimulateCustomerPayment } from '../../app/simulate-customer-payment';
import type { Mode } from '../../domain/mode';
import { renderPayment, renderPayments } from '../../views/payment-pages';
import { orRefusal } from './forms';
import { listQueryOf } from './list-query';
import { pageContext } from './request-context';
import { doneOf, signedOf, type Done } from './signed';

export interface PaymentUseCases {
  listPayments: ListPayments;
  showPayment: ShowPayment;
  cancelPayment: CancelPayment;
  simulateCustomerPayment: SimulateCustomerPayment;
}

/** The payments, one payment and what can be done to it, on the router of one mode (already signed in and unlocked). */
export function paymentRoutes(router: Router, mode: Mode, useCases: PaymentUseCases): void {
  router.get('/payments', async (request, response) => {
    const { scope, context } = signedOf(response);
    const list = listQueryOf(
      request,
      response,
      ['status', 'reference', 'created_from', 'created_to', 'starting_after'],
      { param: 'status', values: paymentStatus.names },
      /^pay_[A-Za-z0-9]+$/,
    );
    const { query } = list;
    if (list.refusal !== undefined) {
      const { problem, status } = list.refusal;
      const page = { items: [], hasMore: false };
      return sendHtml(response, status, renderPayments(context('payments'), page, {}, { problem, query }));
    }
    const { filters } = list;
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
      await orRefusal(
        request,
        response,
        async () => {
          await act(scope, paymentId);
          response.redirect(303, `/${mode}/payments/${paymentId}?done=${done}`);
        },
        async ({ problem, status }) => {
          const view = await useCases.showPayment.execute(scope, paymentId);
          sendHtml(response, status, renderPayment(context('payments'), view, undefined, problem));
        },
      );
    };

  router.post(
    '/payments/:paymentId/cancel',
    paymentAction((scope, id) => useCases.cancelPayment.execute(scope, id), 'canceled'),
  );
  router.post(
    '/payments/:paymentId/simulate',
    paymentAction((scope, id) => useCases.simulateCustomerPayment.execute(scope, id), 'simulated'),
  );
}
