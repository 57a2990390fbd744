import { sendHtml } from '@sika/web';
import type { Router } from 'express';

import type { ConfirmPassword } from '../../app/confirm-password';
import type { RenewSecretKey } from '../../app/renew-secret-key';
import type { ShowKeys } from '../../app/show-keys';
import { renderKeys } from '../../views/merchant-pages';
import { confirmed, formText, orRefusal } from './forms';
import { requireRecentAuthentication } from './recent-authentication';
import { pageContext } from './request-context';
import { signedOf } from './signed';

export interface KeyUseCases {
  confirmPassword: ConfirmPassword;
  showKeys: ShowKeys;
  renewSecretKey: RenewSecretKey;
}

/** The API keys and their renewal, on the router of one mode (already signed in and unlocked). */
export function keyRoutes(router: Router, useCases: KeyUseCases): void {
  router.get('/keys', async (_request, response) => {
    const { scope, context } = signedOf(response);
    sendHtml(response, 200, renderKeys(context('keys'), await useCases.showKeys.execute(scope)));
  });

  router.post(
    '/keys/renew',
    requireRecentAuthentication(useCases.confirmPassword, 'keys'),
    async (request, response) => {
      const { scope, context } = signedOf(response);
      await orRefusal(
        request,
        response,
        async () => {
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
        },
        async (refusal) => {
          const key = await useCases.showKeys.execute(scope);
          const { copy } = pageContext(request, response);
          const problem =
            refusal.problem.param === 'confirm'
              ? { param: 'confirm', message: copy.keys.confirm }
              : refusal.problem;
          sendHtml(response, refusal.status, renderKeys(context('keys'), key, { problem }));
        },
      );
    },
  );
}
