import { isId, newId } from '@sika/platform';
import { balanceTransactionType } from '@sika/public-api';
import { sendHtml } from '@sika/web';
import type { Request, Response, Router } from 'express';

import type { ConfirmPassword } from '../../app/confirm-password';
import type { ConfirmPayoutAccount } from '../../app/confirm-payout-account';
import type { ActivationDetails } from '../../app/ports';
import type { PayOutNow } from '../../app/pay-out-now';
import type { RegisterPayoutAccount } from '../../app/register-payout-account';
import type { RequestActivation } from '../../app/request-activation';
import type { SetPayoutSchedule } from '../../app/set-payout-schedule';
import type { ShowActivation } from '../../app/show-activation';
import type { ShowBalance } from '../../app/show-balance';
import type { ShowPayout } from '../../app/show-payout';
import type { ShowPayouts } from '../../app/show-payouts';
import type { Mode } from '../../domain/mode';
import { ACTIVATION_FIELDS, renderActivation } from '../../views/activation-pages';
import { renderBalance } from '../../views/balance-pages';
import { renderPayout, renderPayouts, type PayoutsPageState } from '../../views/payout-pages';
import { formEcho, formText, orRefusal } from './forms';
import { listQueryOf } from './list-query';
import { requireRecentAuthentication } from './recent-authentication';
import { pageContext } from './request-context';
import { doneOf, signedOf } from './signed';

export interface MoneyUseCases {
  confirmPassword: ConfirmPassword;
  showBalance: ShowBalance;
  showPayouts: ShowPayouts;
  showPayout: ShowPayout;
  registerPayoutAccount: RegisterPayoutAccount;
  confirmPayoutAccount: ConfirmPayoutAccount;
  setPayoutSchedule: SetPayoutSchedule;
  payOutNow: PayOutNow;
  showActivation: ShowActivation;
  requestActivation: RequestActivation;
}

const PAYOUTS_PAGE_SIZE = 20;

/** Balance, payouts and going live, on the router of one mode (already signed in and unlocked). */
export function moneyRoutes(router: Router, mode: Mode, useCases: MoneyUseCases): void {
  router.get('/balance', async (request, response) => {
    const { scope, context } = signedOf(response);
    const list = listQueryOf(
      request,
      response,
      ['type', 'created_from', 'created_to', 'starting_after'],
      { param: 'type', values: balanceTransactionType.names },
      /^txn_[A-Za-z0-9]+$/,
    );
    const { query } = list;
    if (list.refusal !== undefined) {
      const { problem, status } = list.refusal;
      const view = await useCases.showBalance.execute(scope, {});
      return sendHtml(
        response,
        status,
        renderBalance(context('balance'), { ...view, movements: [], hasMore: false }, {}, { problem, query }),
      );
    }
    const { filters } = list;
    const view = await useCases.showBalance.execute(scope, filters);
    sendHtml(response, 200, renderBalance(context('balance'), view, filters, { query }));
  });

  const payoutsPage = async (
    request: Request,
    response: Response,
    status: number,
    state: Omit<PayoutsPageState, 'payoutFormKey'> & { payoutFormKey?: string },
  ) => {
    const { scope, context } = signedOf(response);
    const cursor = request.query['starting_after'];
    const startingAfter = typeof cursor === 'string' && isId('po', cursor) ? cursor : undefined;
    const view = await useCases.showPayouts.execute(scope, {
      limit: PAYOUTS_PAGE_SIZE,
      ...(startingAfter !== undefined && { startingAfter }),
    });
    sendHtml(
      response,
      status,
      renderPayouts(context('payouts'), view, {
        ...state,
        payoutFormKey: state.payoutFormKey ?? newId('dpf'),
        ...(startingAfter !== undefined && { startingAfter }),
      }),
    );
  };

  router.get('/payouts', async (request, response) => {
    const p = pageContext(request, response).copy.payouts;
    const notices = {
      account_registered: p.registered,
      account_confirmed: p.confirmed,
      schedule_saved: p.scheduleSaved,
    } as const;
    const done = doneOf(request);
    const notice = done !== undefined && done in notices ? notices[done as keyof typeof notices] : undefined;
    await payoutsPage(request, response, 200, notice === undefined ? {} : { notice });
  });

  router.post(
    '/payouts/account',
    requireRecentAuthentication(useCases.confirmPassword, 'payouts'),
    async (request, response) => {
      const { scope } = signedOf(response);
      const values = { aliasType: formEcho(request, 'alias_type'), alias: formEcho(request, 'alias') };
      await orRefusal(
        request,
        response,
        async () => {
          await useCases.registerPayoutAccount.execute(scope, signedOf(response).user, {
            type: formText(request, 'alias_type'),
            alias: formText(request, 'alias'),
          });
          response.redirect(303, `/${mode}/payouts?done=account_registered`);
        },
        ({ problem, status }) => payoutsPage(request, response, status, { problem, values }),
      );
    },
  );

  router.post(
    '/payouts/account/confirm',
    requireRecentAuthentication(useCases.confirmPassword, 'payouts'),
    async (request, response) => {
      const { scope } = signedOf(response);
      await orRefusal(
        request,
        response,
        async () => {
          await useCases.confirmPayoutAccount.execute(
            scope,
            signedOf(response).user,
            formText(request, 'holder_name'),
          );
          response.redirect(303, `/${mode}/payouts?done=account_confirmed`);
        },
        ({ problem, status }) => payoutsPage(request, response, status, { problem }),
      );
    },
  );

  router.post('/payouts/schedule', async (request, response) => {
    const { scope } = signedOf(response);
    await orRefusal(
      request,
      response,
      async () => {
        await useCases.setPayoutSchedule.execute(scope, formText(request, 'schedule'));
        response.redirect(303, `/${mode}/payouts?done=schedule_saved`);
      },
      ({ problem, status }) => payoutsPage(request, response, status, { problem }),
    );
  });

  router.post('/payouts', async (request, response) => {
    const { scope } = signedOf(response);
    const form = {
      choice: formEcho(request, 'choice'),
      amount: formEcho(request, 'amount'),
      idempotencyKey: formEcho(request, 'idempotency_key'),
    };
    await orRefusal(
      request,
      response,
      async () => {
        const payout = await useCases.payOutNow.execute(scope, {
          choice: formText(request, 'choice'),
          amount: formText(request, 'amount'),
          idempotencyKey: formText(request, 'idempotency_key'),
        });
        response.redirect(303, `/${mode}/payouts/${payout.id}?done=payout_created`);
      },
      // The same key comes back with the refused form: correcting it and sending again is still one payout.
      ({ problem, status }) =>
        payoutsPage(request, response, status, {
          problem,
          values: { choice: form.choice, amount: form.amount },
          ...(isId('dpf', form.idempotencyKey) && { payoutFormKey: form.idempotencyKey }),
        }),
    );
  });

  router.get('/payouts/:payoutId', async (request, response) => {
    const { scope, context } = signedOf(response);
    const { copy } = pageContext(request, response);
    const notice = doneOf(request) === 'payout_created' ? copy.payouts.created : undefined;
    const view = await useCases.showPayout.execute(scope, request.params.payoutId);
    sendHtml(response, 200, renderPayout(context('payouts'), view, notice));
  });

  if (mode === 'test') {
    // Going live is one page, under live: the test mode's link to it lands there.
    router.get('/activate', (_request, response) => response.redirect(303, '/live/activate'));
    return;
  }

  router.get('/activate', async (request, response) => {
    const { scope, context } = signedOf(response);
    const { copy } = pageContext(request, response);
    const notice = doneOf(request) === 'activation_requested' ? copy.activation.requested : undefined;
    const view = await useCases.showActivation.execute(scope.merchantId);
    sendHtml(
      response,
      200,
      renderActivation(context('activate'), view, notice === undefined ? {} : { notice }),
    );
  });

  router.post('/activate', async (request, response) => {
    const { scope, context } = signedOf(response);
    const detailsBy = (read: typeof formText) =>
      Object.fromEntries(
        Object.entries(ACTIVATION_FIELDS).map(([field, key]) => [key, read(request, field)]),
      ) as unknown as ActivationDetails;
    const details = detailsBy(formEcho);
    await orRefusal(
      request,
      response,
      async () => {
        await useCases.requestActivation.execute(scope.merchantId, detailsBy(formText));
        response.redirect(303, '/live/activate?done=activation_requested');
      },
      async ({ problem, status }) => {
        const view = await useCases.showActivation.execute(scope.merchantId);
        sendHtml(response, status, renderActivation(context('activate'), view, { problem, values: details }));
      },
    );
  });
}
